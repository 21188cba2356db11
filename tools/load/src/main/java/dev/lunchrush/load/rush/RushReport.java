package dev.lunchrush.load.rush;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.lesson.ClosingLine;
import dev.lunchrush.lesson.Death;
import dev.lunchrush.lesson.Figures;

import static dev.lunchrush.load.rush.Latencies.millis;

/** The end of the rush on the console: the counts, the latencies, the generator's verdict, a death, the lesson's table. */
final class RushReport {

    private static final String LESSON_FORMAT = "%-34s %-9s %13s %13s %10s  %s%n";

    private RushReport() {
    }

    static void print(RushResult result, PrintWriter out) {
        DriverCounters counters = result.counters();
        out.printf("Orders: %,d sent, %,d placed (201), %,d throttled (429) of which %,d retried with the same "
                + "Idempotency-Key, %,d gave up, %,d refused (503), %,d timed out (outcome unknown), %,d failed "
                + "without an answer, %,d re-sent after a dropped connection%s%n",
                counters.scheduled.sum(), counters.accepted.sum(), counters.throttled.sum(), counters.retried.sum(),
                counters.gaveUp.sum(), counters.unavailable.sum(), counters.timeouts.sum(), counters.errors.sum(),
                counters.reconnects.sum(),
                counters.otherStatuses.isEmpty() ? "" : ", other statuses " + counters.otherStatuses);
        if (!counters.errorKinds.isEmpty()) {
            out.println("Failures without an answer: " + counters.errorKinds);
        }
        Histogram latency = result.latency();
        if (latency.getTotalCount() > 0) {
            out.printf("Latency of placed orders from their intended send time: p50 %.1f ms, p99 %.1f ms, "
                    + "p99.9 %.1f ms, max %.1f ms%n", millis(latency, 50), millis(latency, 99), millis(latency, 99.9),
                    latency.getMaxValue() / 1000.0);
        }
        out.println(result.verdict().sentence());
        String death = death(result);
        if (death != null) {
            out.printf("%n%s%n", death);
        }
        out.println();
        out.println(heading(result));
        out.printf(LESSON_FORMAT, "", "unit", "measured", "predicted", "diff", "");
        for (RushOutcome.LessonLine line : lesson(result)) {
            out.printf(LESSON_FORMAT, line.name(), line.unit(), line.measured(), line.predicted(), line.difference(),
                    line.note());
        }
        out.flush();
    }

    /** What the rush came to, as printed and as {@code --json} writes it. */
    static RushOutcome outcome(RushResult result) {
        return new RushOutcome(RushJson.toJson(result), heading(result), lesson(result), death(result));
    }

    /** When the order service died and what died with it; null when it lived. */
    static @Nullable String death(RushResult result) {
        Death death = result.death();
        if (death == null) {
            return null;
        }
        return ("The order service DIED at %s (%.1f s into the rush)%s. Events that died with it: %,d "
                + "(accepted into the feed %,d − delivered to the job %,d; last seen in the feed: %,d).").formatted(
                death.clock(), death.atSeconds(), result.measurement().isMemoryFeed() ? " with its in-memory feed" : "",
                death.eventsLost(), death.acceptedIntoFeed(), death.deliveredToJob(), death.lastSeenBuffered());
    }

    static String heading(RushResult result) {
        return "The lesson, measured against predicted (act %s, speed %s; times in wall seconds):".formatted(
                result.act(), Figures.trim(result.profile().speed()));
    }

    /** The closing table's lines, each cell as printed. */
    static List<RushOutcome.LessonLine> lesson(RushResult result) {
        List<RushOutcome.LessonLine> lines = new ArrayList<>();
        for (ClosingLine line : result.lines()) {
            lines.add(new RushOutcome.LessonLine(line.name(), line.unit(), Figures.number(line.measured()),
                    Figures.number(line.predicted()), Figures.percent(line.differencePercent()), line.note(),
                    line.differencePercent(), line.measured(), line.predicted()));
        }
        return lines;
    }
}
