package dev.lunchrush.load.rush;

import java.util.List;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.lesson.ClosingLine;
import dev.lunchrush.lesson.Death;
import dev.lunchrush.lesson.LessonArithmetic;
import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.lesson.RushMeasurement;
import dev.lunchrush.lesson.Snapshot;

/**
 * What a rush came to: the generator's counts and latencies, whether it held the rate, the order service's death
 * if it died, and the lesson's figures measured against predicted. The report and the JSON are written from it.
 */
record RushResult(RateProfile profile, RushMeasurement measurement, List<Snapshot> snapshots,
        DriverCounters counters, Histogram latency, Histogram lag, GeneratorVerdict verdict,
        @Nullable Death death, List<ClosingLine> lines) {

    /**
     * @param diedAtSeconds when the order service died, seconds into the rush; null when it lived
     */
    static RushResult of(RateProfile profile, LessonArithmetic predicted, List<Snapshot> snapshots,
            OpenLoopDriver driver, @Nullable Double diedAtSeconds) {
        RushMeasurement measurement = new RushMeasurement(snapshots, profile, predicted, diedAtSeconds);
        Snapshot base = snapshots.get(0);
        Snapshot last = snapshots.get(snapshots.size() - 1);
        long readAtEnd = Double.isNaN(measurement.read(last)) ? -1 : (long) measurement.read(last);
        Death death = diedAtSeconds == null ? null : measurement.death(diedAtSeconds, readAtEnd);
        if (death != null && base.orderService() != null) {
            // what the feed held before the rush died with it too
            death = death.withHeldBefore(base.orderService().feedBuffered());
        }
        return new RushResult(profile, measurement, List.copyOf(snapshots), driver.counters(),
                driver.latencyHistogram(), driver.lagHistogram(), GeneratorVerdict.of(profile, driver), death,
                measurement.lines(death));
    }

    /** The act the rush ran in, with the feed's strategy in act 3; "unknown" when the order service never said. */
    String act() {
        for (Snapshot snapshot : snapshots) {
            if (snapshot.orderService() != null) {
                Snapshot.OrderServiceStats stats = snapshot.orderService();
                return stats.memoryFeed() ? stats.act() + "/" + stats.strategy() : stats.act();
            }
        }
        return "unknown";
    }
}
