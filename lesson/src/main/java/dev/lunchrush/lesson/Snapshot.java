package dev.lunchrush.lesson;

import org.jspecify.annotations.Nullable;

/**
 * What the stack looked like at one moment of the rush: the generator's own counts and what each
 * service said (-1 where a service did not answer).
 *
 * @param kitchenMissing the orders the kitchen screen itself counts as missing (gaps in the order service's
 *     numbering that never arrived)
 * @param dashboardBacklog events the analytics dashboard has not read yet, from where the current act keeps
 *     them ({@link ActLesson#dashboardBacklog})
 * @param kitchenBacklog the same for the kitchen screen ({@link ActLesson#kitchenReader})
 */
public record Snapshot(long elapsedNanos, long accepted, long throttled, long unavailable, long failed,
        @Nullable OrderServiceStats orderService, long kitchenTotal, long kitchenMissing, long dashboardTotal,
        double dashboardCapacity, long dashboardBacklog, long kitchenBacklog) {

    public double elapsedSeconds() {
        return elapsedNanos / 1e9;
    }

    public boolean orderServiceUp() {
        return orderService != null;
    }

    /** {@code GET /api/stats} of the order service. */
    public record OrderServiceStats(String act, String strategy, String run, long placed, long feedBuffered,
            long feedBufferedBytes, long feedDelivered, long feedDropped, long feedRejected, long heapUsed,
            long heapUsedAfterGc, long heapMax, long heapOldGenerationMax) {

        /** Whether the act it is in keeps unsent events in its memory ({@link ActLesson#keepsAFeed}). */
        public boolean memoryFeed() {
            return Lessons.forId(act).map(ActLesson::keepsAFeed).orElse(false);
        }

        /** What an in-memory feed may grow to before the service runs out of heap ({@link LessonArithmetic#feedRoomBytes}). */
        public double feedBudget() {
            return LessonArithmetic.feedRoomBytes(heapUsedAfterGc, heapMax, heapOldGenerationMax);
        }
    }
}
