package dev.lunchrush.load.rush;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.Act;

/**
 * The lesson's figures as measured from the rush's snapshots, next to what {@link LessonArithmetic}
 * predicts. The first segment of the profile is "the rush" (12:20-12:35); the second, if any, is the
 * time after it, when the slow reader catches up.
 *
 * <p>Counts are the generator's own (201s) and the dashboard's own ({@code total}), relative to the
 * first snapshot, taken just before the first order: backlog = backlog at the start + placed − read.
 */
final class RushMeasurement {

    /** One line of the measured-vs-predicted table. */
    record Line(String name, String unit, double measured, double predicted, String note) {

        double differencePercent() {
            return LessonArithmetic.differencePercent(measured, predicted);
        }
    }

    /** When the order service stopped answering, and what went with it. */
    record Death(double atSeconds, String clock, long acceptedIntoFeed, long deliveredToJob, long lastSeenBuffered) {

        long eventsLost() {
            return Math.max(0, acceptedIntoFeed - deliveredToJob);
        }
    }

    private final List<Snapshot> snapshots;
    private final RateProfile profile;
    private final LessonArithmetic predicted;
    private final Snapshot base;
    private final double peakEnd;
    private final double warmUp;
    /** Where the rates are measured to: the end of the rush's peak, or half the life of a service that died in it. */
    private final double ratesEnd;

    RushMeasurement(List<Snapshot> snapshots, RateProfile profile, LessonArithmetic predicted) {
        this(snapshots, profile, predicted, null);
    }

    /**
     * @param diedAtSeconds when the order service died, seconds into the rush, null when it lived: the rates of a
     *     service that died during the rush are measured over the first half of its life, as the lesson's
     *     arithmetic means them. In its last seconds its full collections slow the intake down (at speed 5 in
     *     act 3, 2,000/s for 51 s of its 63, then 1,650/s and less): that is the dying, not the rates that kill it.
     */
    RushMeasurement(List<Snapshot> snapshots, RateProfile profile, LessonArithmetic predicted, @Nullable Double diedAtSeconds) {
        if (snapshots.isEmpty()) {
            throw new IllegalArgumentException("no snapshots");
        }
        this.snapshots = List.copyOf(snapshots);
        this.profile = profile;
        this.predicted = predicted;
        this.base = snapshots.get(0);
        this.peakEnd = profile.segments().get(0).seconds();
        // the first second or two are the JIT's and the connection pool's, not the lesson's
        this.warmUp = Math.min(2.0, peakEnd * 0.1);
        this.ratesEnd = diedAtSeconds == null || diedAtSeconds >= peakEnd ? peakEnd
                : Math.min(diedAtSeconds, Math.max(warmUp + 2, diedAtSeconds / 2));
    }

    LessonArithmetic predicted() {
        return predicted;
    }

    double placed(Snapshot snapshot) {
        return snapshot.accepted() - base.accepted();
    }

    /** Events the dashboard has read since the rush started, NaN when it did not answer. */
    double read(Snapshot snapshot) {
        if (snapshot.dashboardTotal() < 0 || base.dashboardTotal() < 0) {
            return Double.NaN;
        }
        return snapshot.dashboardTotal() - base.dashboardTotal();
    }

    double backlogAtStart() {
        return Math.max(0, base.dashboardBacklog());
    }

    /** What the closing table says of a reader that started behind: the predictions include that backlog. */
    private String startedBehind() {
        return backlogAtStart() > 0 ? "; %,.0f of them unread at the start".formatted(backlogAtStart()) : "";
    }

    double backlog(Snapshot snapshot) {
        return backlogAtStart() + placed(snapshot) - read(snapshot);
    }

    /** Orders accepted per second during the rush (after the warm-up). */
    double inRate() {
        return slope(warmUp, ratesEnd, this::placed);
    }

    /** Events the dashboard read per second during the rush. */
    double outRate() {
        return slope(warmUp, ratesEnd, this::read);
    }

    double surplusRate() {
        return inRate() - outRate();
    }

    /** Bytes per second: the feed's bytes in the memory-feed act, the order service's heap after GC otherwise. */
    double memoryGrowth() {
        if (isMemoryFeed()) {
            return slope(warmUp, ratesEnd, RushMeasurement::feedBytes);
        }
        return slope(warmUp, ratesEnd, s -> s.orderService() == null || s.orderService().heapUsedAfterGc() <= 0
                ? Double.NaN : s.orderService().heapUsedAfterGc());
    }

    /** Average event size in the feed, NaN when the feed was empty or not in use. */
    double eventBytes() {
        double bytes = 0;
        double events = 0;
        for (Snapshot snapshot : snapshots) {
            if (snapshot.orderService() != null && snapshot.orderService().feedBuffered() > 0) {
                bytes = snapshot.orderService().feedBufferedBytes();
                events = snapshot.orderService().feedBuffered();
            }
        }
        return events == 0 ? Double.NaN : bytes / events;
    }

    boolean isMemoryFeed() {
        return snapshots.stream().anyMatch(s -> s.orderService() != null && s.orderService().memoryFeed());
    }

    /**
     * What died with the order service, which died (as the rush's death watch decided: its process gone, not
     * merely slow) at {@code diedAtSeconds}: the orders accepted until then, against what the job got.
     */
    Death death(double diedAtSeconds, long deliveredAfterDeath) {
        Snapshot lastUp = null;
        for (Snapshot snapshot : snapshots) {
            if (snapshot.elapsedSeconds() < diedAtSeconds && snapshot.orderServiceUp()) {
                lastUp = snapshot;
            }
        }
        Snapshot last = snapshots.get(snapshots.size() - 1);
        long accepted = last.accepted() - base.accepted();
        long delivered = deliveredAfterDeath >= 0 ? deliveredAfterDeath : lastUp == null ? 0 : (long) read(lastUp);
        long lastSeen = lastUp == null || lastUp.orderService() == null ? -1 : lastUp.orderService().feedBuffered();
        return new Death(diedAtSeconds, profile.clock(java.time.Duration.ofNanos(Math.round(diedAtSeconds * 1e9))),
                accepted, delivered, lastSeen);
    }

    double backlogAtEndOfPeak() {
        return valueAt(peakEnd, this::backlog);
    }

    /** From the end of the rush until the dashboard read the event appended then. */
    double waitForEventAppendedAtEndOfPeak() {
        double position = backlogAtStart() + valueAt(peakEnd, this::placed);
        double reached = firstTimeAtLeast(peakEnd, this::read, position);
        return reached - peakEnd;
    }

    /** Read rate minus arrival rate while the reader works off its backlog after the rush. */
    double spareCapacity() {
        if (profile.segments().size() < 2) {
            return Double.NaN;
        }
        double caughtUp = peakEnd + timeToCatchUp();
        double end = Double.isNaN(caughtUp) ? peakEnd + profile.segments().get(1).seconds() : caughtUp;
        double from = peakEnd + Math.min(1.0, (end - peakEnd) * 0.1);
        return slope(from, end, this::read) - slope(from, end, this::placed);
    }

    /** From the end of the rush until the backlog is down to about a second of arrivals. */
    double timeToCatchUp() {
        if (profile.segments().size() < 2) {
            return Double.NaN;
        }
        double threshold = profile.segments().get(1).ratePerSecond();
        double reached = firstTimeAtMost(peakEnd, this::backlog, threshold);
        return reached - peakEnd;
    }

    /** The act the rush ran in (the first the order service reported), or "" when it never answered. */
    String act() {
        for (Snapshot snapshot : snapshots) {
            if (snapshot.orderService() != null) {
                return snapshot.orderService().act();
            }
        }
        return "";
    }

    /** Orders the kitchen screen got since the rush started, NaN when it did not answer. */
    double kitchenGot(Snapshot snapshot) {
        if (snapshot.kitchenTotal() < 0 || base.kitchenTotal() < 0) {
            return Double.NaN;
        }
        return snapshot.kitchenTotal() - base.kitchenTotal();
    }

    /** A reader's share of the orders placed, in %, at the last snapshot where it and the generator are known. */
    private double share(ToDoubleFunction<Snapshot> got) {
        for (int i = snapshots.size() - 1; i > 0; i--) {
            Snapshot snapshot = snapshots.get(i);
            double value = got.applyAsDouble(snapshot);
            if (!Double.isNaN(value) && placed(snapshot) > 0) {
                return 100 * value / placed(snapshot);
            }
        }
        return Double.NaN;
    }

    /** What the kitchen screen itself counts as missing since the rush started, NaN when unknown. */
    double kitchenMissing() {
        Snapshot last = snapshots.get(snapshots.size() - 1);
        if (last.kitchenMissing() < 0 || base.kitchenMissing() < 0) {
            return Double.NaN;
        }
        return last.kitchenMissing() - base.kitchenMissing();
    }

    /**
     * The closing table of the act that ran: act 1, each reader's share against half and what the kitchen
     * screen counts as missing; act 2, each reader's backlog in the broker and the start of a reader added
     * later; acts 3 and 4, the lesson's arithmetic of the slow reader.
     */
    List<Line> lines(@Nullable Death death) {
        if (Act.SHARED_QUEUE.id().equals(act())) {
            return sharedQueueLines();
        }
        if (Act.QUEUE_PER_READER.id().equals(act())) {
            return queuePerReaderLines();
        }
        return slowReaderLines(death);
    }

    private List<Line> sharedQueueLines() {
        Snapshot last = snapshots.get(snapshots.size() - 1);
        double placed = placed(last);
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("kitchen screen's share", "%", share(this::kitchenGot), 50,
                "of the %,.0f orders placed; the rest went to the dashboard".formatted(placed)));
        lines.add(new Line("analytics dashboard's share", "%", share(this::read), 50,
                "both compete for each message of one queue"));
        lines.add(new Line("missing on the kitchen screen", "orders", kitchenMissing(), placed / 2,
                "as the screen counts them: gaps in the order numbers"));
        return lines;
    }

    private List<Line> queuePerReaderLines() {
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("surplus rate (in − out)", "events/s", surplusRate(), predicted.surplusRate(),
                ratesNote()));
        lines.add(new Line("backlog at the end of the rush", "events", backlogAtEndOfPeak(), predicted.backlogAtEndOfPeak(),
                "the dashboard's queue, in RabbitMQ" + startedBehind()));
        double kitchenBacklog = valueAt(peakEnd, s -> s.kitchenBacklog() < 0 ? Double.NaN : s.kitchenBacklog());
        lines.add(new Line("kitchen's queue, end of the rush", "events", kitchenBacklog, 0,
                "the fast reader keeps up"));
        lines.add(new Line("history a reader added now gets", "events", Double.NaN, 0,
                "a queue bound now gets only later orders: none of the %,.0f placed".formatted(placed(snapshots.get(snapshots.size() - 1)))));
        double catchUp = timeToCatchUp();
        boolean after = profile.segments().size() > 1;
        lines.add(new Line("time to catch up", "s", catchUp, after ? predicted.secondsToCatchUp() : Double.NaN,
                Double.isNaN(catchUp) ? "" : "caught up at "
                        + profile.clock(java.time.Duration.ofNanos(Math.round((peakEnd + catchUp) * 1e9)))));
        return lines;
    }

    private List<Line> slowReaderLines(@Nullable Death death) {
        List<Line> lines = new ArrayList<>();
        lines.add(new Line("surplus rate (in − out)", "events/s", surplusRate(), predicted.surplusRate(),
                ratesNote()));
        String memoryNote = isMemoryFeed() ? "the feed's bytes" : "order-service heap after GC; predicted: an unbounded feed";
        lines.add(new Line("memory growth", "KB/s", memoryGrowth() / 1000, predicted.memoryGrowthBytesPerSecond() / 1000,
                memoryNote));
        double fill = death == null ? Double.NaN : death.atSeconds();
        lines.add(fillLine(death, fill));
        // a service that died before the end of the rush has no backlog then: what it held died with it
        boolean diedBeforePeakEnd = death != null && death.atSeconds() < peakEnd;
        String peakEndClock = profile.clock(java.time.Duration.ofNanos(Math.round(peakEnd * 1e9)));
        lines.add(new Line("backlog at the end of the rush", "events",
                diedBeforePeakEnd ? Double.NaN : backlogAtEndOfPeak(), predicted.backlogAtEndOfPeak(),
                diedBeforePeakEnd ? "died before " + peakEndClock + ", its feed with it" : "at " + peakEndClock + startedBehind()));
        double wait = waitForEventAppendedAtEndOfPeak();
        lines.add(new Line("wait for an event appended then", "s", wait,
                predicted.secondsWaitForEventAppendedAtEndOfPeak(), lessonMinutes(wait)));
        // a profile without an "after the rush" segment has no spare capacity to predict, nor a catch-up
        boolean after = profile.segments().size() > 1;
        lines.add(new Line("spare capacity (out − after)", "events/s", spareCapacity(),
                after ? predicted.spareCapacity() : Double.NaN, after ? "" : "no segment after the rush"));
        double catchUp = timeToCatchUp();
        lines.add(new Line("time to catch up", "s", catchUp, after ? predicted.secondsToCatchUp() : Double.NaN,
                Double.isNaN(catchUp) ? "" : "caught up at "
                        + profile.clock(java.time.Duration.ofNanos(Math.round((peakEnd + catchUp) * 1e9)))));
        return lines;
    }

    private String ratesNote() {
        String rates = "in %.0f/s, out %.0f/s".formatted(inRate(), outRate());
        return ratesEnd < peakEnd ? rates + " over the first half of its life (to %.1f s)".formatted(ratesEnd) : rates;
    }

    /**
     * When the feed fills its budget. In the memory-feed act the prediction is the budget over the feed's growth as
     * this rush measured it early in the service's life (from the end of the warm-up, over the first half of its
     * life when it died): the death is judged against the heap's arithmetic at the rate the service really took,
     * which a generator that did not hold the asked rate would otherwise distort; the note gives the asked rates'.
     * In the other acts, what an unbounded feed would do at the asked rates.
     */
    private Line fillLine(@Nullable Death death, double fill) {
        String budget = "a budget of %.1f MB".formatted(predicted.budgetBytes() / 1e6);
        String outcome = death == null ? "did not die; " + budget : "died at " + death.clock() + "; " + budget;
        double asked = predicted.secondsToFillBudget();
        double growth = memoryGrowth();
        if (!isMemoryFeed() || Double.isNaN(growth) || growth <= 0) {
            return new Line("time to fill the budget", "s", fill, asked, outcome);
        }
        double grown = valueAt(warmUp, RushMeasurement::feedBytes) - feedBytes(base);
        double atMeasured = predicted.secondsToFillBudget(warmUp, Double.isNaN(grown) ? 0 : grown, growth);
        return new Line("time to fill the budget", "s", fill, atMeasured, outcome
                + " over the growth measured to %.1f s (%s s at the asked rates)".formatted(ratesEnd, Figures.number(asked)));
    }

    private static double feedBytes(Snapshot snapshot) {
        return snapshot.orderService() == null ? Double.NaN : snapshot.orderService().feedBufferedBytes();
    }

    private String lessonMinutes(double wallSeconds) {
        if (Double.isNaN(wallSeconds)) {
            return "";
        }
        double lesson = wallSeconds * profile.speed();
        return "%.1f lesson minutes".formatted(lesson / 60);
    }

    /**
     * Δvalue ÷ Δt between the first and the last snapshot within [from, to] where the value is known
     * (a service that stopped answering limits the window to when it still did).
     */
    double slope(double from, double to, ToDoubleFunction<Snapshot> value) {
        Snapshot first = null;
        Snapshot last = null;
        for (Snapshot snapshot : snapshots) {
            double at = snapshot.elapsedSeconds();
            if (at < from - 1e-9 || at > to + 1e-9 || Double.isNaN(value.applyAsDouble(snapshot))) {
                continue;
            }
            if (first == null) {
                first = snapshot;
            }
            last = snapshot;
        }
        if (first == null || last == first) {
            return Double.NaN;
        }
        return (value.applyAsDouble(last) - value.applyAsDouble(first)) / (last.elapsedSeconds() - first.elapsedSeconds());
    }

    /** The value at time t, linear between the snapshots around it; NaN outside or where unknown. */
    double valueAt(double t, ToDoubleFunction<Snapshot> value) {
        Snapshot before = null;
        for (Snapshot snapshot : snapshots) {
            double at = snapshot.elapsedSeconds();
            if (at == t) {
                return value.applyAsDouble(snapshot);
            }
            if (at > t) {
                if (before == null) {
                    return value.applyAsDouble(snapshot);
                }
                double a = value.applyAsDouble(before);
                double b = value.applyAsDouble(snapshot);
                double fraction = (t - before.elapsedSeconds()) / (at - before.elapsedSeconds());
                return a + (b - a) * fraction;
            }
            before = snapshot;
        }
        return before == null ? Double.NaN : value.applyAsDouble(before);
    }

    private double firstTimeAtLeast(double from, ToDoubleFunction<Snapshot> value, double target) {
        return crossing(from, value, target, true);
    }

    private double firstTimeAtMost(double from, ToDoubleFunction<Snapshot> value, double target) {
        return crossing(from, value, target, false);
    }

    /** The first time after {@code from} the value reaches the target, interpolated; NaN if it never does. */
    private double crossing(double from, ToDoubleFunction<Snapshot> value, double target, boolean upwards) {
        double previousTime = from;
        double previous = valueAt(from, value);
        if (!Double.isNaN(previous) && (upwards ? previous >= target : previous <= target)) {
            return from;
        }
        for (Snapshot snapshot : snapshots) {
            double at = snapshot.elapsedSeconds();
            if (at <= from) {
                continue;
            }
            double current = value.applyAsDouble(snapshot);
            if (!Double.isNaN(current) && (upwards ? current >= target : current <= target)) {
                if (Double.isNaN(previous) || current == previous) {
                    return at;
                }
                double fraction = (target - previous) / (current - previous);
                return previousTime + (at - previousTime) * Math.max(0, Math.min(1, fraction));
            }
            previousTime = at;
            previous = current;
        }
        return Double.NaN;
    }
}
