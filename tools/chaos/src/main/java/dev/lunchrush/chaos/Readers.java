package dev.lunchrush.chaos;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.RabbitManagementClient;
import dev.lunchrush.localstack.access.ReaderClient;
import dev.lunchrush.localstack.access.ReaderStats;

/**
 * What the readers say they got, asked over their own HTTP APIs: the kitchen screen's and the dashboard's
 * counters per source, the kitchen screen's shown orders by id, and the depth of RabbitMQ's queues from its
 * management API.
 */
final class Readers {

    /** The counters of one moment. */
    record Counts(ReaderStats kitchen, ReaderStats dashboard) {

        long kitchen(String source) {
            return kitchen.received(source);
        }

        long dashboard(String source) {
            return dashboard.received(source);
        }

        long deadLettered() {
            return kitchen.deadLettered() + dashboard.deadLettered();
        }

        long duplicatesIgnored() {
            return kitchen.duplicatesIgnored();
        }
    }

    private final ReaderClient kitchenScreen;
    private final ReaderClient dashboard;
    private final OrderServiceClient orderService;
    private final RabbitManagementClient rabbitManagement;

    Readers(Endpoints endpoints, URI rabbitManagement, String rabbitUser, String rabbitPassword) {
        this.kitchenScreen = new ReaderClient("kitchen-screen", endpoints.kitchenScreen(), () -> "");
        this.dashboard = new ReaderClient("analytics-dashboard", endpoints.analyticsDashboard(), () -> "");
        this.orderService = new OrderServiceClient(endpoints.orderService(), () -> "");
        this.rabbitManagement = new RabbitManagementClient(rabbitManagement, rabbitUser, rabbitPassword);
    }

    Counts counts() {
        return new Counts(kitchenScreen.stats(), dashboard.stats());
    }

    /** Events in the order service's in-memory feed, not yet handed to the analytics job. */
    long feedBuffered() {
        return orderService.stats().feed().buffered();
    }

    /** How many of these orders the kitchen screen has not shown; asked one by one, 8 at a time. */
    long notShownOnKitchenScreen(Collection<String> orderIds) {
        AtomicLong notShown = new AtomicLong();
        ConcurrentHashMap<String, String> failures = new ConcurrentHashMap<>();
        ExecutorService askers = Executors.newFixedThreadPool(8);
        for (String id : orderIds) {
            askers.execute(() -> {
                int status = kitchenScreen.http().tryStatus("/api/orders/" + URLEncoder.encode(id, StandardCharsets.UTF_8),
                        Duration.ofSeconds(10));
                if (status == 404) {
                    notShown.incrementAndGet();
                }
                else if (status == 0) {
                    failures.put(id, "no answer");
                }
                else if (status != 200) {
                    failures.put(id, "answered " + status);
                }
            });
        }
        askers.shutdown();
        try {
            if (!askers.awaitTermination(5, TimeUnit.MINUTES)) {
                askers.shutdownNow();
                throw new DemoException("the kitchen screen did not say within 5 minutes which orders it showed");
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
        if (!failures.isEmpty()) {
            throw new DemoException("the kitchen screen could not say whether it showed " + failures.size()
                    + " orders, e.g. " + failures.entrySet().iterator().next());
        }
        return notShown.get();
    }

    /** Messages in a RabbitMQ queue of the default virtual host, ready and unacknowledged. */
    long queueDepth(String queue) {
        return rabbitManagement.queueDepth(queue);
    }
}
