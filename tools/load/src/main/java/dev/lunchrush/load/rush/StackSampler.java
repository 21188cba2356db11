package dev.lunchrush.load.rush;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Source;
import dev.lunchrush.lesson.ActLesson;
import dev.lunchrush.lesson.Lessons;
import dev.lunchrush.lesson.Snapshot;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.OrderStats;
import dev.lunchrush.localstack.access.ReaderStats;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * Reads the services' figures once a second while the rush runs: the order service's and the readers'
 * {@code /api/stats} and the backlog monitor's readers, in parallel, each with a short timeout, so that a
 * service that is down (or dying) shows as down without stalling the table.
 */
public final class StackSampler implements AutoCloseable {

    private static final Duration POLL_TIMEOUT = Duration.ofMillis(900);

    /** The monitor's poll interval (1 s) and the readers' offset commits (once a second), with room to spare. */
    static final Duration BASE_REASK = Duration.ofMillis(2500);

    private final ServiceClient orderService;
    private final ServiceClient kitchenScreen;
    private final ServiceClient dashboard;
    private final ServiceClient backlogMonitor;
    private final ExecutorService pool = Executors.newFixedThreadPool(4, runnable -> {
        Thread thread = new Thread(runnable, "rush-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Snapshot> snapshots = new ArrayList<>();
    private volatile String lastAct = "";

    StackSampler(Endpoints endpoints, Supplier<String> adminPassword) {
        this.orderService = new ServiceClient("order-service", endpoints.orderService(), adminPassword);
        this.kitchenScreen = new ServiceClient("kitchen-screen", endpoints.kitchenScreen(), adminPassword);
        this.dashboard = new ServiceClient("analytics-dashboard", endpoints.analyticsDashboard(), adminPassword);
        this.backlogMonitor = new ServiceClient("backlog-monitor", endpoints.backlogMonitor(), adminPassword);
    }

    /**
     * The snapshot the rush starts from, before its first order. A dashboard backlog in it is asked for again
     * {@link #BASE_REASK} later, and that answer is kept instead: the backlog monitor answers with its last
     * poll's figures when a new poll takes longer than it waits (the first ask after a quiet spell), and those
     * may be an earlier rush's last seconds; with no orders coming, a backlog only shrinks.
     */
    Snapshot base(DriverCounters counters) {
        Snapshot first = sample(0, counters);
        if (first.dashboardBacklog() <= 0) {
            return first;
        }
        Rush.sleepUntil(System.nanoTime() + BASE_REASK.toNanos());
        synchronized (snapshots) {
            snapshots.clear();
        }
        return sample(0, counters);
    }

    /** Polls every service now and keeps the snapshot. */
    Snapshot sample(long elapsedNanos, DriverCounters counters) {
        CompletableFuture<Optional<JsonNode>> orders = poll(orderService, "/api/stats");
        CompletableFuture<Optional<JsonNode>> kitchen = poll(kitchenScreen, "/api/stats");
        CompletableFuture<Optional<JsonNode>> analytics = poll(dashboard, "/api/stats");
        CompletableFuture<Optional<JsonNode>> readers = poll(backlogMonitor, "/api/readers");
        Snapshot.OrderServiceStats stats = orders.join().map(StackSampler::orderServiceStats).orElse(null);
        if (stats != null) {
            lastAct = stats.act();
        }
        JsonNode analyticsStats = analytics.join().orElse(null);
        JsonNode kitchenStats = kitchen.join().orElse(null);
        JsonNode readerStats = readers.join().orElse(null);
        Snapshot snapshot = new Snapshot(elapsedNanos, counters.accepted.sum(), counters.throttled.sum(),
                counters.unavailable.sum(), counters.timeouts.sum() + counters.errors.sum(), stats,
                received(lastAct, kitchenStats),
                kitchenStats == null ? -1 : ServiceClient.number(kitchenStats, "missing"),
                received(lastAct, analyticsStats),
                analyticsStats == null ? -1 : ServiceClient.decimal(analyticsStats, "capacityPerSecond"),
                dashboardBacklog(lastAct, stats, readerStats), kitchenBacklog(lastAct, readerStats));
        synchronized (snapshots) {
            snapshots.add(snapshot);
        }
        return snapshot;
    }

    List<Snapshot> snapshots() {
        synchronized (snapshots) {
            return List.copyOf(snapshots);
        }
    }

    String lastAct() {
        return lastAct;
    }

    private CompletableFuture<Optional<JsonNode>> poll(ServiceClient client, String path) {
        return CompletableFuture.supplyAsync(() -> client.tryGet(path, POLL_TIMEOUT), pool);
    }

    /** The order service's {@code /api/stats} as the lesson reads it. */
    public static Snapshot.OrderServiceStats orderServiceStats(JsonNode node) {
        OrderStats stats = OrderStats.of(node);
        OrderStats.Feed feed = stats.feed();
        OrderStats.Heap heap = stats.heap();
        return new Snapshot.OrderServiceStats(stats.act(), stats.strategy(), stats.run(), stats.placed(), feed.buffered(),
                feed.bufferedBytes(), feed.delivered(), feed.dropped(), feed.rejected(), heap.usedBytes(),
                heap.usedAfterGcBytes(), heap.maxBytes(), heap.oldGenerationMaxBytes());
    }

    /**
     * The orders a reader has received: where the act's readers compete, those of the shared queue only, whose
     * shares the act is about (a reader may still be reading what an earlier act left in its own queue); otherwise
     * from every source; -1 when the reader did not answer, or while the act is not known (the order service has not
     * answered yet), so that no count is taken against another kind of count.
     */
    static long received(String act, @Nullable JsonNode readerStats) {
        Optional<ActLesson> lesson = Lessons.forId(act);
        if (readerStats == null || lesson.isEmpty()) {
            return -1;
        }
        ReaderStats stats = ReaderStats.of(readerStats);
        return lesson.get().readersCompete() ? stats.received(Source.SHARED_QUEUE) : stats.total();
    }

    /**
     * Where the dashboard's unread events are in this act (the log's while it is not known), -1 when unknown; from the
     * order service's stats and the backlog monitor's {@code /api/readers}, either of them null when it did not answer.
     */
    public static long dashboardBacklog(String act, Snapshot.@Nullable OrderServiceStats stats, @Nullable JsonNode readers) {
        return Lessons.forIdOrLog(act).dashboardBacklog(stats, reader -> unread(readers, reader));
    }

    /** Where the kitchen screen's unread events are in this act (the log's while it is not known), -1 when unknown. */
    static long kitchenBacklog(String act, @Nullable JsonNode readers) {
        return unread(readers, Lessons.forIdOrLog(act).kitchenReader());
    }

    private static long unread(@Nullable JsonNode readers, String reader) {
        if (readers == null || !readers.isArray()) {
            return -1;
        }
        for (JsonNode entry : readers) {
            if (reader.equals(ServiceClient.text(entry, "reader"))) {
                return ServiceClient.number(entry, "unread");
            }
        }
        return -1;
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
