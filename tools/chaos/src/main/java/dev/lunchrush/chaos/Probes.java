package dev.lunchrush.chaos;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * The well-behaved client beside the hostile ones: every {@value #EVERY_MILLIS} ms, {@code GET
 * /actuator/health/liveness} of every service (whether its server answers, not whether its brokers do) and one real order on the order service, each allowed {@link #LIMIT}; an answer later than that, or
 * none, is counted as late.
 */
final class Probes implements AutoCloseable {

    static final Duration LIMIT = Duration.ofSeconds(1);
    static final long EVERY_MILLIS = 500;

    /** One service's figures. */
    static final class Figures {
        final AtomicLong asked = new AtomicLong();
        /** later than {@link #LIMIT}, or wrong */
        final AtomicLong late = new AtomicLong();
        /** answered with another status than the one wanted, or not at all */
        final AtomicLong wrong = new AtomicLong();
        final AtomicLong slowestMillis = new AtomicLong();
        /** Orders placed (201), for the orders' figures. */
        final AtomicLong placed = new AtomicLong();
        final List<String> lateOnes = new ArrayList<>();
        /** The seconds (since the probes started) in which a late one was asked. */
        final Set<Long> lateSeconds = new ConcurrentSkipListSet<>();

        void answered(long millis, boolean right, String what, long askedAtSecond) {
            asked.incrementAndGet();
            slowestMillis.accumulateAndGet(millis, Math::max);
            if (!right) {
                wrong.incrementAndGet();
            }
            if (!right || millis > LIMIT.toMillis()) {
                late.incrementAndGet();
                lateSeconds.add(askedAtSecond);
                synchronized (lateOnes) {
                    if (lateOnes.size() < 3) {
                        lateOnes.add(what);
                    }
                }
            }
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(LIMIT).build();
    private final Map<String, URI> health = new LinkedHashMap<>();
    private volatile Map<String, Figures> figures = new LinkedHashMap<>();
    private volatile Figures orders = new Figures();
    private final URI orderUri;
    private final SampleOrders samples;
    private final Thread thread;
    private final List<CompletableFuture<?>> inFlight = new ArrayList<>();
    private volatile boolean stopping;
    private volatile long origin;

    Probes(Map<String, URI> services, URI orderService, Menu menu, long seed) {
        services.forEach((name, base) -> {
            health.put(name, Endpoints.resolve(base, "/actuator/health/liveness"));
            figures.put(name, new Figures());
        });
        this.orderUri = Endpoints.resolve(orderService, "/orders");
        this.samples = new SampleOrders(menu, new Random(seed));
        this.thread = new Thread(this::loop, "chaos-probes");
        this.thread.setDaemon(true);
    }

    void start() {
        origin = System.nanoTime();
        thread.start();
    }

    /**
     * Counts from now on afresh: what was counted until now is kept apart (a probe under way is counted where it
     * started) and returned, as the figures of the services and then those of the orders under {@code ""}.
     */
    synchronized Map<String, Figures> countAfresh() {
        Map<String, Figures> before = new LinkedHashMap<>(figures);
        before.put("", orders);
        Map<String, Figures> fresh = new LinkedHashMap<>();
        figures.keySet().forEach(name -> fresh.put(name, new Figures()));
        figures = fresh;
        orders = new Figures();
        return before;
    }

    Figures health(String service) {
        return figures.get(service);
    }

    Figures orders() {
        return orders;
    }

    long placed() {
        return orders.placed.get();
    }

    private void loop() {
        long next = System.nanoTime();
        while (!stopping) {
            List<CompletableFuture<?>> round = new ArrayList<>();
            Map<String, Figures> into = figures;
            health.forEach((name, uri) -> round.add(ask(HttpRequest.newBuilder(uri).GET(), into.get(name), 200,
                    name + " health")));
            byte[] order = ServiceClient.JSON.writeValueAsBytes(samples.next());
            round.add(ask(HttpRequest.newBuilder(orderUri).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(order)), orders, 201, "order"));
            // not waited for: a service that answers late must not hold up the probes of the others (each request
            // ends within five times the limit, so at most ten are under way per service)
            inFlight.addAll(round);
            inFlight.removeIf(CompletableFuture::isDone);
            next += TimeUnit.MILLISECONDS.toNanos(EVERY_MILLIS);
            LockSupport.parkNanos(next - System.nanoTime());
        }
    }

    private CompletableFuture<?> ask(HttpRequest.Builder request, Figures into, int wanted, String what) {
        long started = System.nanoTime();
        return http.sendAsync(request.timeout(LIMIT.multipliedBy(5)).build(), HttpResponse.BodyHandlers.discarding())
                .handle((response, failure) -> {
                    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                    boolean right = failure == null && response.statusCode() == wanted;
                    if (right && wanted == 201) {
                        into.placed.incrementAndGet();
                    }
                    into.answered(millis, right, what + ": "
                            + (failure != null ? failure.getClass().getSimpleName() : response.statusCode()) + " in " + millis + " ms",
                            TimeUnit.NANOSECONDS.toSeconds(started - origin));
                    return null;
                });
    }

    @Override
    public void close() {
        stopping = true;
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
            CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).get(LIMIT.toSeconds() * 5 + 5, TimeUnit.SECONDS);
        }
        catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
            // each is counted by its own handler; one not ended by now is not counted
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
