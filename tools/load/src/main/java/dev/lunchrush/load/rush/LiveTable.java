package dev.lunchrush.load.rush;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;

import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.lesson.Snapshot;

/**
 * The table that {@code rush} keeps up to date while it runs: redrawn in place on a terminal, one line
 * every few seconds otherwise (so that a CI log stays readable). Its {@code p99 ms} is the latency of the
 * orders accepted since the row before, so that a slow stretch of the rush shows when it happened.
 */
final class LiveTable {

    private static final String FORMAT = "%-9s %7s %9s %7s %9s %9s %9s %11s %8s %8s %7s %7s %9s";
    private static final String HEADER = FORMAT.formatted(LiveRow.HEADER.toArray());

    private final PrintWriter out;
    private final boolean inPlace;
    private final int everyNth;
    private static final int NOTE_LINES = 3;

    private boolean drawn;
    private int calls;
    /** Latencies (microseconds) of the orders accepted since the last row shown. */
    private final Histogram sinceRow = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);

    LiveTable(PrintWriter out, boolean inPlace, int everyNth) {
        this.out = out;
        this.inPlace = inPlace;
        this.everyNth = Math.max(1, everyNth);
    }

    void header() {
        out.println(HEADER);
        out.flush();
    }

    /** {@code latencies}: of the orders accepted since the last update (microseconds). */
    void update(Snapshot base, Snapshot now, RateProfile profile, List<String> notes, Histogram latencies) {
        sinceRow.add(latencies);
        if (!inPlace && calls++ % everyNth != 0) {
            return;
        }
        List<String> lines = new ArrayList<>();
        lines.add(row(base, now, profile, takeP99()));
        lines.addAll(notes);
        if (inPlace) {
            // always the same number of lines, so that moving the cursor back up is exact
            while (lines.size() < NOTE_LINES + 1) {
                lines.add("");
            }
            StringBuilder text = new StringBuilder();
            if (drawn) {
                text.append("\033[").append(NOTE_LINES + 1).append('F');
            }
            for (String line : lines.subList(0, NOTE_LINES + 1)) {
                text.append("\033[2K").append(line).append('\n');
            }
            drawn = true;
            out.print(text);
        }
        else {
            lines.forEach(out::println);
        }
        out.flush();
    }

    /** After the last update: keep the final row on screen, start a fresh paragraph. */
    void finish(Snapshot base, Snapshot last, RateProfile profile, List<String> notes, Histogram latencies) {
        sinceRow.add(latencies);
        if (!inPlace) {
            List<String> lines = new ArrayList<>();
            lines.add(row(base, last, profile, takeP99()));
            lines.addAll(notes);
            lines.forEach(out::println);
        }
        out.println();
        out.flush();
    }

    /** The p99 of the orders accepted since the last row, in ms ("-" if none was), and a fresh count. */
    private String takeP99() {
        String p99 = LiveRow.p99(sinceRow);
        sinceRow.reset();
        return p99;
    }

    static String row(Snapshot base, Snapshot now, RateProfile profile, String p99) {
        return FORMAT.formatted(cells(base, now, profile, p99).toArray());
    }

    /** A row's cells, as printed under {@link LiveRow#HEADER}. */
    static List<String> cells(Snapshot base, Snapshot now, RateProfile profile, String p99) {
        Duration elapsed = Duration.ofNanos(now.elapsedNanos());
        Snapshot.OrderServiceStats stats = now.orderService();
        Snapshot.OrderServiceStats baseStats = base.orderService();
        boolean feed = stats != null && stats.memoryFeed();
        return List.of(profile.clock(elapsed), count((long) profile.rateAt(elapsed)),
                count(now.accepted() - base.accepted()), p99,
                delta(now.kitchenTotal(), base.kitchenTotal()),
                delta(now.dashboardTotal(), base.dashboardTotal()),
                stats == null ? "down" : feed ? count(stats.feedBuffered()) : "-",
                stats == null ? "down" : "%d/%d".formatted(stats.heapUsed() >> 20, stats.heapMax() >> 20),
                stats == null ? "down" : count(stats.feedDropped() - (baseStats == null ? 0 : baseStats.feedDropped())),
                stats == null ? "down" : count(stats.feedRejected() - (baseStats == null ? 0 : baseStats.feedRejected())),
                count(now.throttled()), count(now.unavailable()),
                now.dashboardBacklog() < 0 ? "?" : count(now.dashboardBacklog()));
    }

    private static String delta(long now, long base) {
        return now < 0 ? "down" : count(now - Math.max(0, base));
    }

    static String count(long value) {
        return "%,d".formatted(value);
    }
}
