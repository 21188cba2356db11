package dev.lunchrush.lesson;

import java.util.List;
import java.util.function.ToDoubleFunction;

import org.jspecify.annotations.Nullable;

/**
 * The lesson's figures as measured from the rush's snapshots, whatever the act; the act that ran
 * ({@link #lesson()}) sets them against its predictions in the closing table. The first segment of the profile is
 * "the rush" (12:20-12:35); the second, if any, is the time after it, when the slow reader catches up.
 *
 * <p>Counts are the generator's own (201s) and the dashboard's own ({@code total}), relative to the
 * first snapshot, taken just before the first order: backlog = backlog at the start + placed − read.
 */
public final class RushMeasurement {

    private final Series series;
    private final RateProfile profile;
    private final LessonArithmetic predicted;
    private final Snapshot base;
    private final double peakEnd;
    private final double warmUp;
    /** Where the rates are measured to: the end of the rush's peak, or half the life of a service that died in it. */
    private final double ratesEnd;

    public RushMeasurement(List<Snapshot> snapshots, RateProfile profile, LessonArithmetic predicted) {
        this(snapshots, profile, predicted, null);
    }

    /**
     * @param diedAtSeconds when the order service died, seconds into the rush, null when it lived: the rates of a
     *     service that died during the rush are measured over the first half of its life, as the lesson's
     *     arithmetic means them; in its last seconds its full collections slow the intake down, and that is the
     *     dying, not the rates that kill it.
     */
    public RushMeasurement(List<Snapshot> snapshots, RateProfile profile, LessonArithmetic predicted,
            @Nullable Double diedAtSeconds) {
        this.series = new Series(snapshots);
        this.profile = profile;
        this.predicted = predicted;
        this.base = series.first();
        this.peakEnd = profile.segments().get(0).seconds();
        // the first second or two are the JIT's and the connection pool's, not the lesson's
        this.warmUp = Math.min(2.0, peakEnd * 0.1);
        this.ratesEnd = diedAtSeconds == null || diedAtSeconds >= peakEnd ? peakEnd
                : Math.min(diedAtSeconds, Math.max(warmUp + 2, diedAtSeconds / 2));
    }

    public LessonArithmetic predicted() {
        return predicted;
    }

    RateProfile profile() {
        return profile;
    }

    Series series() {
        return series;
    }

    /** Seconds into the rush where its peak (the first segment) ends. */
    double peakEnd() {
        return peakEnd;
    }

    double warmUp() {
        return warmUp;
    }

    /** Where the rates are measured to. */
    double ratesEnd() {
        return ratesEnd;
    }

    /** Whether the profile has a segment after the rush, when the slow reader catches up. */
    boolean hasAfter() {
        return profile.segments().size() > 1;
    }

    /** The act the rush ran in (the first the order service reported), or "" when it never answered. */
    public String act() {
        for (Snapshot snapshot : series.snapshots()) {
            if (snapshot.orderService() != null) {
                return snapshot.orderService().act();
            }
        }
        return "";
    }

    /** The lesson of the act the rush ran in: its predictions and closing lines. */
    public ActLesson lesson() {
        return Lessons.forIdOrLog(act());
    }

    /** The closing table of the act that ran, measured against its predictions. */
    public List<ClosingLine> lines(@Nullable Death death) {
        return lesson().closingLines(this, death);
    }

    /** Whether the act that ran kept its unsent events in the order service's memory. */
    public boolean isMemoryFeed() {
        return lesson().keepsAFeed();
    }

    public double placed(Snapshot snapshot) {
        return snapshot.accepted() - base.accepted();
    }

    /** Events the dashboard has read since the rush started, NaN when it did not answer. */
    public double read(Snapshot snapshot) {
        if (snapshot.dashboardTotal() < 0 || base.dashboardTotal() < 0) {
            return Double.NaN;
        }
        return snapshot.dashboardTotal() - base.dashboardTotal();
    }

    public double backlogAtStart() {
        return Math.max(0, base.dashboardBacklog());
    }

    /** What the closing table says of a reader that started behind: the predictions include that backlog. */
    String startedBehind() {
        return backlogAtStart() > 0 ? "; %,.0f of them unread at the start".formatted(backlogAtStart()) : "";
    }

    public double backlog(Snapshot snapshot) {
        return backlogAtStart() + placed(snapshot) - read(snapshot);
    }

    /** Orders accepted per second during the rush (after the warm-up). */
    public double inRate() {
        return series.slope(warmUp, ratesEnd, this::placed);
    }

    /** Events the dashboard read per second during the rush. */
    public double outRate() {
        return series.slope(warmUp, ratesEnd, this::read);
    }

    public double surplusRate() {
        return inRate() - outRate();
    }

    /** How the memory grew in bytes per second, as the act that ran means it ({@link ActLesson#memoryGrowth}). */
    public double memoryGrowth() {
        return lesson().memoryGrowth(this);
    }

    /** Bytes per second the order service's feed grew by during the rush. */
    double feedGrowth() {
        return series.slope(warmUp, ratesEnd, RushMeasurement::feedBytes);
    }

    /** Bytes per second the order service's heap after GC grew by during the rush. */
    double heapGrowth() {
        return series.slope(warmUp, ratesEnd, s -> s.orderService() == null || s.orderService().heapUsedAfterGc() <= 0
                ? Double.NaN : s.orderService().heapUsedAfterGc());
    }

    /** What the feed had grown by at the end of the warm-up, from the rush's start; 0 when unknown. */
    double feedGrownByWarmUp() {
        double grown = series.valueAt(warmUp, RushMeasurement::feedBytes) - feedBytes(base);
        return Double.isNaN(grown) ? 0 : grown;
    }

    /** Average event size in the feed, NaN when the feed was empty or not in use. */
    public double eventBytes() {
        double bytes = 0;
        double events = 0;
        for (Snapshot snapshot : series.snapshots()) {
            if (snapshot.orderService() != null && snapshot.orderService().feedBuffered() > 0) {
                bytes = snapshot.orderService().feedBufferedBytes();
                events = snapshot.orderService().feedBuffered();
            }
        }
        return events == 0 ? Double.NaN : bytes / events;
    }

    /**
     * What died with the order service, which died (as the rush's death watch decided: its process gone, not
     * merely slow) at {@code diedAtSeconds}: the orders accepted until then, against what the job got.
     */
    public Death death(double diedAtSeconds, long deliveredAfterDeath) {
        Snapshot lastUp = null;
        for (Snapshot snapshot : series.snapshots()) {
            if (snapshot.elapsedSeconds() < diedAtSeconds && snapshot.orderServiceUp()) {
                lastUp = snapshot;
            }
        }
        long accepted = series.last().accepted() - base.accepted();
        long delivered = deliveredAfterDeath >= 0 ? deliveredAfterDeath : lastUp == null ? 0 : (long) read(lastUp);
        long lastSeen = lastUp == null || lastUp.orderService() == null ? -1 : lastUp.orderService().feedBuffered();
        return new Death(diedAtSeconds, profile.clock(diedAtSeconds), accepted, delivered, lastSeen);
    }

    public double backlogAtEndOfPeak() {
        return series.valueAt(peakEnd, this::backlog);
    }

    /** From the end of the rush until the dashboard read the event appended then. */
    public double waitForEventAppendedAtEndOfPeak() {
        double position = backlogAtStart() + series.valueAt(peakEnd, this::placed);
        double reached = series.firstTimeAtLeast(peakEnd, this::read, position);
        return reached - peakEnd;
    }

    /** Read rate minus arrival rate while the reader works off its backlog after the rush. */
    public double spareCapacity() {
        if (!hasAfter()) {
            return Double.NaN;
        }
        double caughtUp = peakEnd + timeToCatchUp();
        double end = Double.isNaN(caughtUp) ? peakEnd + profile.segments().get(1).seconds() : caughtUp;
        double from = peakEnd + Math.min(1.0, (end - peakEnd) * 0.1);
        return series.slope(from, end, this::read) - series.slope(from, end, this::placed);
    }

    /** From the end of the rush until the backlog is down to about a second of arrivals. */
    public double timeToCatchUp() {
        if (!hasAfter()) {
            return Double.NaN;
        }
        double threshold = profile.segments().get(1).ratePerSecond();
        double reached = series.firstTimeAtMost(peakEnd, this::backlog, threshold);
        return reached - peakEnd;
    }

    /** Orders the kitchen screen got since the rush started, NaN when it did not answer. */
    public double kitchenGot(Snapshot snapshot) {
        if (snapshot.kitchenTotal() < 0 || base.kitchenTotal() < 0) {
            return Double.NaN;
        }
        return snapshot.kitchenTotal() - base.kitchenTotal();
    }

    /** A reader's share of the orders placed, in %, at the last snapshot where it and the generator are known. */
    double share(ToDoubleFunction<Snapshot> got) {
        List<Snapshot> snapshots = series.snapshots();
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
        Snapshot last = series.last();
        if (last.kitchenMissing() < 0 || base.kitchenMissing() < 0) {
            return Double.NaN;
        }
        return last.kitchenMissing() - base.kitchenMissing();
    }

    /** The kitchen's unread events at the end of the rush's peak, NaN when unknown. */
    double kitchenBacklogAtEndOfPeak() {
        return series.valueAt(peakEnd, s -> s.kitchenBacklog() < 0 ? Double.NaN : s.kitchenBacklog());
    }

    /** The rates the surplus is measured from, and over what part of the rush. */
    String ratesNote() {
        String rates = "in %.0f/s, out %.0f/s".formatted(inRate(), outRate());
        return ratesEnd < peakEnd ? rates + " over the first half of its life (to %.1f s)".formatted(ratesEnd) : rates;
    }

    /** The rush's surplus (in − out) against the arithmetic's. */
    ClosingLine surplusLine() {
        return new ClosingLine("surplus rate (in − out)", "events/s", surplusRate(), predicted.surplusRate(), ratesNote());
    }

    /** How long the slow reader took to catch up after the rush, against backlog ÷ spare capacity. */
    ClosingLine catchUpLine() {
        double catchUp = timeToCatchUp();
        return new ClosingLine("time to catch up", "s", catchUp, hasAfter() ? predicted.secondsToCatchUp() : Double.NaN,
                Double.isNaN(catchUp) ? "" : "caught up at " + profile.clock(peakEnd + catchUp));
    }

    /** A wall-clock duration in the lesson's minutes (× the speed factor); "" when unknown. */
    String lessonMinutes(double wallSeconds) {
        if (Double.isNaN(wallSeconds)) {
            return "";
        }
        double lesson = wallSeconds * profile.speed();
        return "%.1f lesson minutes".formatted(lesson / 60);
    }

    static double feedBytes(Snapshot snapshot) {
        return snapshot.orderService() == null ? Double.NaN : snapshot.orderService().feedBufferedBytes();
    }
}
