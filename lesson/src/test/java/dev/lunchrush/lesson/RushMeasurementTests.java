package dev.lunchrush.lesson;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The measured side of the lesson's table, from snapshots of a stack that behaves exactly like the lesson. */
class RushMeasurementTests {

    private static final double SPEED = 10;

    /** In at 4000/s for 90 s, then 1000/s; the reader takes 2500/s in order (log act); sampled every second. */
    private static List<Snapshot> lessonInTheLog(double until) {
        List<Snapshot> snapshots = new ArrayList<>();
        for (double t = 0; t <= until; t += 1) {
            long placed = Math.round(t <= 90 ? 4000 * t : 360_000 + 1000 * (t - 90));
            long read = Math.round(Math.min(2500 * t, placed));
            Snapshot.OrderServiceStats stats = new Snapshot.OrderServiceStats("log", "", "run", placed, 0, 0, 0, 0, 0,
                    50_000_000, 40_000_000, 160_000_000, 144_000_000);
            snapshots.add(new Snapshot(Math.round(t * 1e9), placed, 0, 0, 0, stats, placed, 0, 1_000 + read, 2500,
                    placed - read, 0));
        }
        return snapshots;
    }

    @Test
    void theLogActMeasuresTheLessonsNumbers() {
        RushMeasurement measurement = new RushMeasurement(lessonInTheLog(200), RateProfile.lunch(SPEED),
                LessonArithmetic.lesson(SPEED));

        assertThat(measurement.inRate()).isCloseTo(4000.0, within(1.0));
        assertThat(measurement.outRate()).isCloseTo(2500.0, within(1.0));
        assertThat(measurement.surplusRate()).isCloseTo(1500.0, within(1.0));
        assertThat(measurement.backlogAtEndOfPeak()).isCloseTo(135_000.0, within(1.0));
        assertThat(measurement.waitForEventAppendedAtEndOfPeak()).isCloseTo(54.0, within(0.1));
        assertThat(measurement.spareCapacity()).isCloseTo(1500.0, within(20.0));
        // the backlog is down to a second of arrivals (1000 events) 1000/1500 s before the exact catch-up at 90 s
        assertThat(measurement.timeToCatchUp()).isCloseTo(90.0 - 1000.0 / 1500, within(0.1));
        // the heap stays flat in the log act
        assertThat(measurement.memoryGrowth()).isCloseTo(0.0, within(1.0));

        List<ClosingLine> lines = measurement.lines(null);
        assertThat(lines).extracting(ClosingLine::name).containsExactly("surplus rate (in − out)",
                "memory growth", "time to fill the budget", "backlog at the end of the rush",
                "wait for an event appended then", "spare capacity (out − after)", "time to catch up");
        assertThat(lines.get(0).differencePercent()).isCloseTo(0.0, within(0.1));
        assertThat(lines.get(3).differencePercent()).isCloseTo(0.0, within(0.1));
        assertThat(lines.get(3).note()).isEqualTo("at 12:35:00");
    }

    @Test
    void theUnboundedFeedDiesAndTakesItsEventsWithIt() {
        // memory-feed unbounded: the feed grows by 1500 events (1.5 MB) per second until the service is gone at 67 s
        List<Snapshot> snapshots = new ArrayList<>();
        for (int t = 0; t <= 70; t++) {
            long placed = Math.min(t, 67) * 4000L;
            long read = Math.min(t, 67) * 2500L + (t > 67 ? 0 : 0);
            Snapshot.OrderServiceStats stats = t >= 67 ? null : new Snapshot.OrderServiceStats("memory-feed",
                    "unbounded", "run", placed, placed - read, (placed - read) * 1000, read, 0, 0, 0, 0, 160_000_000,
                    144_000_000);
            snapshots.add(new Snapshot(t * 1_000_000_000L, placed, 0, 0, 0, stats, placed, 0, read, 2500,
                    stats == null ? -1 : placed - read, 0));
        }
        RushMeasurement measurement = new RushMeasurement(snapshots, RateProfile.lunch(SPEED), LessonArithmetic.lesson(SPEED));

        assertThat(measurement.isMemoryFeed()).isTrue();
        assertThat(measurement.memoryGrowth()).isCloseTo(1_500_000.0, within(1.0));
        assertThat(measurement.eventBytes()).isCloseTo(1000.0, within(0.01));
        Death death = measurement.death(67.0, 67 * 2500L);
        assertThat(death.atSeconds()).isEqualTo(67.0);
        assertThat(death.clock()).isEqualTo("12:31:10");
        assertThat(death.eventsLost()).isEqualTo(67 * 1500L);
        ClosingLine fill = measurement.lines(death).get(2);
        assertThat(fill.measured()).isEqualTo(67.0);
        assertThat(fill.predicted()).isCloseTo(66.67, within(0.01));
        assertThat(fill.differencePercent()).isCloseTo(0.5, within(0.1));
        // here the measured growth is the asked one: the same prediction
        assertThat(fill.note()).isEqualTo("died at 12:31:10; a budget of 100.0 MB over the growth measured to 90.0 s (66.7 s at the asked rates)");
        // dead at 67 s, before the end of the rush at 90 s: no backlog then to hold against the arithmetic
        ClosingLine backlog = measurement.lines(death).get(3);
        assertThat(backlog.name()).isEqualTo("backlog at the end of the rush");
        assertThat(backlog.measured()).isNaN();
        assertThat(backlog.note()).startsWith("died before 12:35:00");
    }

    /**
     * 500 orders/s asked against a job of 50/s, a budget of 14 MB; the generator held 370/s, so the feed grew by
     * 320 KB/s and the service died at 43.75 s: at the asked rates the arithmetic said 31.1 s, 29% early. The death is
     * judged against the budget over the growth the rush measured; the asked rates' figure is in the note.
     */
    @Test
    void theDeathIsPredictedFromTheGrowthTheServiceReallyTook() {
        List<Snapshot> snapshots = new ArrayList<>();
        for (int t = 0; t <= 46; t++) {
            double alive = Math.min(t, 43.75);
            long placed = Math.round(370 * alive);
            long read = Math.round(50 * alive);
            Snapshot.OrderServiceStats stats = t >= 44 ? null : new Snapshot.OrderServiceStats("memory-feed",
                    "unbounded", "run", placed, placed - read, (placed - read) * 1000, read, 0, 0, 0, 0, 41_000_000,
                    35_000_000);
            snapshots.add(new Snapshot(t * 1_000_000_000L, placed, 0, 0, 0, stats, placed, 0, read, 50,
                    stats == null ? -1 : placed - read, 0));
        }
        LessonArithmetic asked = new LessonArithmetic(500, 50, 0, java.time.Duration.ofMinutes(4), 1000, 14_000_000);
        RushMeasurement measurement = new RushMeasurement(snapshots, RateProfile.constant(500, java.time.Duration.ofMinutes(4), 1),
                asked, 43.75);

        ClosingLine fill = measurement.lines(measurement.death(43.75, Math.round(50 * 43.75))).get(2);

        assertThat(asked.secondsToFillBudget()).isCloseTo(31.1, within(0.1));
        assertThat(fill.measured()).isEqualTo(43.75);
        assertThat(fill.predicted()).isCloseTo(43.75, within(0.01));
        assertThat(Math.abs(fill.differencePercent())).isLessThan(10);
        assertThat(fill.note()).isEqualTo("died at 12:20:43; a budget of 14.0 MB over the growth measured to 21.9 s "
                + "(31.1 s at the asked rates)");
    }

    @Test
    void aServiceThatDiedIsMeasuredOverTheFirstHalfOfItsLifeNotItsDying() {
        // 4,000/s in and 2,500/s out for 50 s; then its full collections slow the intake to 2,000/s until it dies at 60 s
        List<Snapshot> snapshots = new ArrayList<>();
        for (int t = 0; t <= 62; t++) {
            long placed = Math.min(t, 50) * 4000L + Math.max(0, Math.min(t, 60) - 50) * 2000L;
            long read = Math.min(t, 60) * 2500L;
            Snapshot.OrderServiceStats stats = t >= 60 ? null : new Snapshot.OrderServiceStats("memory-feed",
                    "unbounded", "run", placed, placed - read, (placed - read) * 1000, read, 0, 0, 0, 0, 160_000_000,
                    144_000_000);
            snapshots.add(new Snapshot(t * 1_000_000_000L, placed, 0, 0, 0, stats, placed, 0, read, 2500,
                    stats == null ? -1 : placed - read, 0));
        }
        RushMeasurement dying = new RushMeasurement(snapshots, RateProfile.lunch(SPEED), LessonArithmetic.lesson(SPEED), 60.0);
        assertThat(dying.inRate()).isCloseTo(4000.0, within(1.0));
        assertThat(dying.surplusRate()).isCloseTo(1500.0, within(1.0));
        assertThat(dying.memoryGrowth()).isCloseTo(1_500_000.0, within(1.0));
        ClosingLine surplus = dying.lines(dying.death(60.0, 60 * 2500L)).get(0);
        assertThat(surplus.note()).isEqualTo("in 4000/s, out 2500/s over the first half of its life (to 30.0 s)");
        // over the whole of its life the dying would count as the rates: 3,655/s in
        RushMeasurement whole = new RushMeasurement(snapshots, RateProfile.lunch(SPEED), LessonArithmetic.lesson(SPEED));
        assertThat(whole.inRate()).isLessThan(3700.0);
    }

    @Test
    void actOneTellsEachReadersShareAgainstHalfAndWhatTheKitchenScreenCountsAsMissing() {
        // shared-queue: 100 orders/s for 30 s, every other one to each reader; the screen sees the other half as gaps
        List<Snapshot> snapshots = new ArrayList<>();
        for (int t = 0; t <= 35; t++) {
            long placed = Math.min(t, 30) * 100L;
            Snapshot.OrderServiceStats stats = new Snapshot.OrderServiceStats("shared-queue", "", "run", placed, 0, 0, 0,
                    0, 0, 0, 0, 160_000_000, 144_000_000);
            snapshots.add(new Snapshot(t * 1_000_000_000L, placed, 0, 0, 0, stats, 40 + placed * 52 / 100,
                    7 + placed * 48 / 100, 900 + placed * 48 / 100, 250, 0, 0));
        }
        RushMeasurement measurement = new RushMeasurement(snapshots, RateProfile.constant(100, java.time.Duration.ofSeconds(30), 1),
                new LessonArithmetic(100, 250, 0, java.time.Duration.ofSeconds(30), 1000, 100_000_000));

        List<ClosingLine> lines = measurement.lines(null);

        assertThat(lines).extracting(ClosingLine::name).containsExactly("kitchen screen's share",
                "analytics dashboard's share", "missing on the kitchen screen");
        assertThat(lines.get(0).measured()).isCloseTo(52.0, within(0.01));
        assertThat(lines.get(0).predicted()).isEqualTo(50.0);
        assertThat(lines.get(1).measured()).isCloseTo(48.0, within(0.01));
        assertThat(lines.get(2).measured()).isEqualTo(1440.0);
        assertThat(lines.get(2).predicted()).isEqualTo(1500.0);
        // none of the slow reader's arithmetic, which means nothing here
        assertThat(lines).extracting(ClosingLine::name).doesNotContain("surplus rate (in − out)", "memory growth");
    }

    @Test
    void actTwoTellsEachReadersBacklogInTheBrokerAndTheLateReadersEmptyStart() {
        // queue-per-reader: 100/s for 30 s against a job of 50/s, then 20/s; the kitchen keeps up
        List<Snapshot> snapshots = new ArrayList<>();
        for (int t = 0; t <= 80; t++) {
            long placed = t <= 30 ? t * 100L : 3000 + (t - 30) * 20L;
            long read = Math.min(t * 50L, placed);
            Snapshot.OrderServiceStats stats = new Snapshot.OrderServiceStats("queue-per-reader", "", "run", placed, 0, 0,
                    0, 0, 0, 0, 0, 160_000_000, 144_000_000);
            snapshots.add(new Snapshot(t * 1_000_000_000L, placed, 0, 0, 0, stats, placed, 0, read, 50, placed - read, 3));
        }
        RateProfile profile = RateProfile.twoSteps("custom", 100, java.time.Duration.ofSeconds(30), 20, java.time.Duration.ofSeconds(50), 1);
        RushMeasurement measurement = new RushMeasurement(snapshots, profile,
                new LessonArithmetic(100, 50, 20, java.time.Duration.ofSeconds(30), 1000, 100_000_000));

        List<ClosingLine> lines = measurement.lines(null);

        assertThat(lines).extracting(ClosingLine::name).containsExactly("surplus rate (in − out)",
                "backlog at the end of the rush", "kitchen's queue, end of the rush",
                "history a reader added now gets", "time to catch up");
        assertThat(lines.get(1).measured()).isCloseTo(1500.0, within(1.0));
        assertThat(lines.get(1).predicted()).isCloseTo(1500.0, within(1.0));
        assertThat(lines.get(2).measured()).isEqualTo(3.0);
        assertThat(lines.get(3).predicted()).isZero();
        assertThat(lines.get(3).note()).contains("none of the 4,000 placed");
    }

    @Test
    void aDashboardThatStartedBehindIsMeasuredAndPredictedFromItsStartingBacklog() {
        // the log act: 100/s for 30 s against a job of 50/s, then 20/s; 1,000 events were unread before the rush
        List<Snapshot> snapshots = new ArrayList<>();
        for (int t = 0; t <= 120; t++) {
            long placed = t <= 30 ? t * 100L : 3000 + (t - 30) * 20L;
            long read = Math.min(t * 50L, placed + 1000);
            Snapshot.OrderServiceStats stats = new Snapshot.OrderServiceStats("log", "", "run", placed, 0, 0,
                    0, 0, 0, 0, 0, 160_000_000, 144_000_000);
            snapshots.add(new Snapshot(t * 1_000_000_000L, placed, 0, 0, 0, stats, placed, 0, read, 50,
                    1000 + placed - read, 0));
        }
        RateProfile profile = RateProfile.twoSteps("custom", 100, java.time.Duration.ofSeconds(30), 20,
                java.time.Duration.ofSeconds(90), 1);
        RushMeasurement measurement = new RushMeasurement(snapshots, profile,
                new LessonArithmetic(100, 50, 20, java.time.Duration.ofSeconds(30), 1000, 100_000_000, 1000));

        List<ClosingLine> lines = measurement.lines(null);

        ClosingLine backlog = lines.stream().filter(line -> line.name().equals("backlog at the end of the rush"))
                .findFirst().orElseThrow();
        assertThat(backlog.measured()).isCloseTo(2500.0, within(1.0));
        assertThat(backlog.predicted()).isCloseTo(2500.0, within(1.0));
        assertThat(backlog.note()).contains("1,000 of them unread at the start");
        ClosingLine catchUp = lines.stream().filter(line -> line.name().equals("time to catch up"))
                .findFirst().orElseThrow();
        // 2,500 behind, worked off at 50 − 20 = 30/s until about a second of arrivals (20) is left
        assertThat(catchUp.predicted()).isCloseTo(83.33, within(0.01));
        assertThat(catchUp.measured()).isCloseTo(82.67, within(0.5));
    }
}
