package dev.lunchrush.load.rush;

import java.time.Duration;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.lesson.Snapshot;

/**
 * One second of a rush as its live table shows it: the cells as printed ({@link #HEADER}'s columns) and the figures
 * behind them, counted from the rush's start; -1 where a service did not answer (or the figure is not of this act).
 *
 * @param kitchenAtStart the kitchen screen's count before the first order ({@link #received}), -1 when unknown
 * @param dashboardAtStart the same for the dashboard
 * @param feedBufferedAtStart what the feed held before the first order (act 3), so that a row accounts for every order
 *     placed: placed = delivered + dropped + buffered − buffered at the start, once no order is in flight
 * @param notes the lines under the row: a generator falling behind, an order service dead or silent
 */
public record LiveRow(double seconds, String clock, double targetRate, long placed, String p99Millis, long kitchen,
        long dashboard, long kitchenAtStart, long dashboardAtStart, long feedBuffered, long feedBufferedAtStart, long feedBufferedBytes, long feedDelivered,
        long heapUsedBytes, long heapMaxBytes, long dropped, long rejected, long throttled, long unavailable,
        long backlog, boolean orderServiceUp, List<String> cells, List<String> notes) {

    /** The live table's columns. */
    public static final List<String> HEADER = List.of("clock", "rate/s", "placed", "p99 ms", "kitchen", "dashboard",
            "feed", "heap MB", "dropped", "rejected", "429s", "503s", "backlog");

    public LiveRow {
        cells = List.copyOf(cells);
        notes = List.copyOf(notes);
    }

    static LiveRow of(Snapshot base, Snapshot now, RateProfile profile, String p99, List<String> notes) {
        Duration elapsed = Duration.ofNanos(now.elapsedNanos());
        Snapshot.OrderServiceStats stats = now.orderService();
        Snapshot.OrderServiceStats baseStats = base.orderService();
        boolean feed = stats != null && stats.memoryFeed();
        return new LiveRow(now.elapsedSeconds(), profile.clock(elapsed), profile.rateAt(elapsed),
                now.accepted() - base.accepted(), p99, since(now.kitchenTotal(), base.kitchenTotal()),
                since(now.dashboardTotal(), base.dashboardTotal()), base.kitchenTotal(), base.dashboardTotal(),
                feed ? stats.feedBuffered() : -1,
                feed && baseStats != null ? baseStats.feedBuffered() : -1, feed ? stats.feedBufferedBytes() : -1,
                feed ? stats.feedDelivered() - (baseStats == null ? 0 : baseStats.feedDelivered()) : -1,
                stats == null ? -1 : stats.heapUsed(),
                stats == null ? -1 : stats.heapMax(),
                stats == null ? -1 : stats.feedDropped() - (baseStats == null ? 0 : baseStats.feedDropped()),
                stats == null ? -1 : stats.feedRejected() - (baseStats == null ? 0 : baseStats.feedRejected()),
                now.throttled(), now.unavailable(), now.dashboardBacklog(), stats != null,
                LiveTable.cells(base, now, profile, p99), notes);
    }

    /**
     * What a reader's count is in the live table, from its {@code /api/stats}: in act 1 the orders of the shared queue,
     * otherwise of every source; -1 when it did not answer.
     */
    public static long received(String act, @Nullable JsonNode readerStats) {
        return StackSampler.received(act, readerStats);
    }

    /** The p99 of the latencies (microseconds) in milliseconds as the table prints it, "-" when there are none. */
    static String p99(Histogram latencies) {
        return latencies.getTotalCount() == 0 ? "-" : "%,.0f".formatted(latencies.getValueAtPercentile(99) / 1000.0);
    }

    private static long since(long now, long base) {
        return now < 0 ? -1 : now - Math.max(0, base);
    }
}
