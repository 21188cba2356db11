package dev.lunchrush.scenarios;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.SampleOrders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 4 with the writer killed: {@code kill -9} of the order service while orders stream in at 100/s,
 * then a restart, and the stream goes on. The oracle is the log, read by the test: every order that got
 * a 201 is in it, once; an order is in it without a 201 only if its request got no answer (its outcome
 * was unknown to the client); a request that could not even connect wrote nothing. Each reader counts
 * exactly the log.
 */
class OrderServiceCrashScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(OrderServiceCrashScenarioTests.class);

    private static final double ORDERS_PER_SECOND = 100;
    private static final long KILL_AFTER = 800;
    private static final long AFTER_RESTART = 500;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            .environment("kitchen-screen", Map.of("LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN", "10000"))
            .inAct("{\"act\":\"log\"}");

    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicLong unanswered = new AtomicLong();
    private final AtomicLong notConnected = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final java.util.Queue<String> otherAnswers = new java.util.concurrent.ConcurrentLinkedQueue<>();

    @Test
    void everyAcknowledgedOrderIsInTheLogOnceAndEachReaderCountsTheLog() throws Exception {
        Menu menu = Orders.menu(stack);
        AtomicBoolean restarted = new AtomicBoolean();
        AtomicLong acknowledgedAtRestart = new AtomicLong(Long.MAX_VALUE);
        CompletableFuture<Long> stream = CompletableFuture.supplyAsync(() -> stream(menu,
                () -> restarted.get() && acknowledged.size() >= acknowledgedAtRestart.get() + AFTER_RESTART));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> acknowledged.size() >= KILL_AFTER);
        stack.service("order-service").kill();
        log.info("order service killed after {} acknowledged orders", acknowledged.size());
        stack.service("order-service").restart(Stack.START_TIMEOUT);
        acknowledgedAtRestart.set(acknowledged.size());
        restarted.set(true);
        long sent = stream.get(300, TimeUnit.SECONDS);
        log.info("{} orders sent: {} acknowledged (201), {} refused (503), {} without an answer, {} could not connect",
                sent, acknowledged.size(), refused.get(), unanswered.get(), notConnected.get());
        assertThat(otherAnswers).as("answers other than 201 and 503").isEmpty();
        assertThat(notConnected.get() + unanswered.get()).as("requests that met the dead service").isPositive();
        assertThat(acknowledged.size()).as("acknowledged after the restart")
                .isGreaterThanOrEqualTo((int) (acknowledgedAtRestart.get() + AFTER_RESTART));

        // the log, by the test itself
        List<String> logged = TheLog.readAll().stream().map(entry -> entry.event().orderId()).toList();
        Set<String> inLog = Set.copyOf(logged);
        assertThat(logged).as("orders in the log").doesNotHaveDuplicates();
        assertThat(inLog).as("every acknowledged order is in the log").containsAll(acknowledged);
        long withoutAck = inLog.stream().filter(id -> !acknowledged.contains(id)).count();
        log.info("{} orders in the log, {} of them without a 201", logged.size(), withoutAck);
        assertThat(withoutAck).as("orders in the log without a 201, against %d requests without an answer", unanswered.get())
                .isLessThanOrEqualTo(unanswered.get());

        // each reader counts the log, no more, no less
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> dashboardTotal() >= logged.size() && kitchenTotal() >= logged.size());
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
                .until(() -> dashboardTotal() == logged.size() && kitchenTotal() == logged.size());
        List<String> shown = new ArrayList<>();
        stack.getJson("kitchen-screen", "/api/kitchens").values()
                .forEach(column -> column.values().forEach(order -> shown.add(order.path("orderId").asString())));
        assertThat(shown).as("orders on the kitchen screen").doesNotHaveDuplicates();
        assertThat(shown.stream().collect(Collectors.toSet())).isEqualTo(inLog);
    }

    /**
     * Orders at {@link #ORDERS_PER_SECOND} until {@code done} says so (at most 5 minutes), each outcome
     * sorted: 201, 503, no answer, no connection. Returns how many were sent.
     */
    private long stream(Menu menu, java.util.function.BooleanSupplier done) {
        SampleOrders samples = new SampleOrders(menu, new SplittableRandom(7L));
        ExecutorService executor = Executors.newFixedThreadPool(8);
        long intervalNanos = (long) (1e9 / ORDERS_PER_SECOND);
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MINUTES.toNanos(5);
        long sent = 0;
        try {
            while (!done.getAsBoolean() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(start + sent * intervalNanos - System.nanoTime());
                OrderRequest request = samples.next();
                executor.submit(() -> send(request));
                sent++;
            }
            executor.shutdown();
            assertThat(executor.awaitTermination(60, TimeUnit.SECONDS)).as("requests finished").isTrue();
            return sent;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
        finally {
            executor.shutdownNow();
        }
    }

    private void send(OrderRequest request) {
        try {
            var response = stack.post("order-service", "/orders", Stack.JSON.writeValueAsString(request), Map.of());
            if (response.statusCode() == 201) {
                acknowledged.add(Stack.JSON.readTree(response.body()).path("orderId").asString());
            }
            else if (response.statusCode() == 503) {
                refused.incrementAndGet();
            }
            else {
                otherAnswers.add(response.statusCode() + ": " + response.body());
            }
        }
        catch (RuntimeException ex) {
            if (causedBy(ex, ConnectException.class)) {
                notConnected.incrementAndGet();
            }
            else {
                unanswered.incrementAndGet();
            }
        }
    }

    private static boolean causedBy(Throwable failure, Class<? extends Throwable> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    private static long dashboardTotal() {
        return stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong();
    }

    private static long kitchenTotal() {
        return stack.getJson("kitchen-screen", "/api/stats").path("received").path("kafka").asLong();
    }
}
