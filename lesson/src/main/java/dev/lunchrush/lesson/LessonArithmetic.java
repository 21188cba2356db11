package dev.lunchrush.lesson;

import java.time.Duration;

/**
 * The lesson's arithmetic, from its inputs: orders come in at {@code inRate} for {@code peak}, the slow
 * reader takes {@code outRate}, then orders come in at {@code afterRate}. Events are {@code eventBytes}
 * long and the in-memory feed has {@code budgetBytes} of room from the rush's start. The reader may start
 * {@code backlogAtStart} events behind (what an earlier rush left unread): the rush adds to that backlog.
 * Decimal units, as the lesson counts (1 KB = 1,000 bytes, 100 MB = 100,000 events of 1 KB).
 *
 * <p>At the lesson's numbers (400/s, 250/s, 100/s, 15 minutes, 1 KB, 100 MB): surplus 150 events/s,
 * 150 KB/s, the budget full after 667 s, 135,000 events behind at 12:35, an event appended then waits
 * 9 minutes, spare capacity 150/s, caught up 15 minutes later, at 12:50.
 */
public record LessonArithmetic(double inRate, double outRate, double afterRate, Duration peak, double eventBytes,
        double budgetBytes, double backlogAtStart) {

    public static final double LESSON_EVENT_BYTES = 1_000;
    public static final double LESSON_BUDGET_BYTES = 100_000_000;
    public static final double LESSON_OUT_RATE = 250;

    /** The order service's feed takes the heap in pages of this size, each one allocation (its {@code PagedEvents}). */
    static final long FEED_PAGE_BYTES = 1 << 20;
    /**
     * What the collection before an OutOfMemoryError frees besides the room measured at the start, in the feed's
     * pages: the caches that only soft references hold, which that last collection clears and the one at the switch
     * into act 3 keeps.
     */
    static final long CLEARED_BEFORE_DEATH_BYTES = 2 * FEED_PAGE_BYTES;

    /** The arithmetic for a reader that starts with nothing unread. */
    public LessonArithmetic(double inRate, double outRate, double afterRate, Duration peak, double eventBytes,
            double budgetBytes) {
        this(inRate, outRate, afterRate, peak, eventBytes, budgetBytes, 0);
    }

    /** The lesson's numbers at speed N: rates × N, the peak ÷ N; event size and budget unchanged. */
    public static LessonArithmetic lesson(double speed) {
        return new LessonArithmetic(RateProfile.LUNCH_PEAK_RATE * speed, LESSON_OUT_RATE * speed,
                RateProfile.LUNCH_AFTER_RATE * speed, RateProfile.divide(RateProfile.LUNCH_PEAK, speed),
                LESSON_EVENT_BYTES, LESSON_BUDGET_BYTES);
    }

    /** Events per second that pile up while the rush runs: in − out. */
    public double surplusRate() {
        return inRate - outRate;
    }

    /** How fast an unbounded in-memory feed grows: surplus × event size (it does not shrink below empty). */
    public double memoryGrowthBytesPerSecond() {
        return Math.max(0, surplusRate()) * eventBytes;
    }

    /** When the feed's budget is full (and the order service dies) at the asked rates: budget ÷ growth. */
    public double secondsToFillBudget() {
        return secondsToFillBudget(0, 0, memoryGrowthBytesPerSecond());
    }

    /**
     * When the feed's budget is full, seconds from the rush's start, as seen {@code atSeconds} into it: the feed had
     * grown by {@code grownBytes} since the start and grows by {@code growthBytesPerSecond}. Infinite when it does
     * not grow. The one arithmetic of the death: the prediction at the asked rates (from the start) and the one at
     * the growth a rush measured (from the end of its warm-up) both come from here.
     */
    public double secondsToFillBudget(double atSeconds, double grownBytes, double growthBytesPerSecond) {
        if (!(growthBytesPerSecond > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return atSeconds + Math.max(0, budgetBytes - grownBytes) / growthBytesPerSecond;
    }

    /**
     * The room an unbounded feed has in the order service's heap, from its {@code /api/stats} figures; -1 when they
     * are missing. The feed's pages go straight into the old generation (the stack's serial collector with
     * {@code -XX:PretenureSizeThreshold=512k}): the young generation is the service's own working space and never
     * the feed's, so the room is the old generation's limit less what the service keeps alive after the last
     * collection (a switch into {@code unbounded} makes it a full one), plus {@link #CLEARED_BEFORE_DEATH_BYTES}.
     * A collector that allocates the pages young (the parallel one) lets the feed into the young generation too,
     * and dies later, after collecting back to back for as long as a reader frees a page now and then.
     *
     * @param usedAfterGcBytes {@code heap.usedAfterGcBytes}
     * @param maxBytes {@code heap.maxBytes}, the limit where the old generation's is not known
     * @param oldGenerationMaxBytes {@code heap.oldGenerationMaxBytes}
     */
    public static double feedRoomBytes(long usedAfterGcBytes, long maxBytes, long oldGenerationMaxBytes) {
        long limit = oldGenerationMaxBytes > 0 ? oldGenerationMaxBytes : maxBytes;
        if (limit <= 0 || usedAfterGcBytes < 0) {
            return -1;
        }
        return Math.max(0, limit - usedAfterGcBytes + CLEARED_BEFORE_DEATH_BYTES);
    }

    /** Events behind at the end of the rush: the backlog at its start, plus surplus × its duration. */
    public double backlogAtEndOfPeak() {
        return backlogAtStart + Math.max(0, surplusRate()) * seconds(peak);
    }

    /** How long the event appended at the end of the rush waits: the events before it, at the reader's rate. */
    public double secondsWaitForEventAppendedAtEndOfPeak() {
        return backlogAtEndOfPeak() / outRate;
    }

    /** What the reader has left over once the rush is over: out − the after-rush rate. */
    public double spareCapacity() {
        return outRate - afterRate;
    }

    /** How long until the reader caught up after the rush: backlog ÷ spare capacity. */
    public double secondsToCatchUp() {
        double spare = spareCapacity();
        return spare <= 0 ? Double.POSITIVE_INFINITY : backlogAtEndOfPeak() / spare;
    }

    /** (measured − predicted) ÷ predicted, in percent; NaN when there is nothing to compare. */
    public static double differencePercent(double measured, double predicted) {
        if (Double.isNaN(measured) || Double.isNaN(predicted) || Double.isInfinite(predicted) || predicted == 0) {
            return Double.NaN;
        }
        return (measured - predicted) / predicted * 100;
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
