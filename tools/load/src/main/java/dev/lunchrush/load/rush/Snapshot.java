package dev.lunchrush.load.rush;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.Act;

/**
 * What the stack looked like at one moment of the rush: the generator's own counts and what each
 * service said (-1 where a service did not answer).
 *
 * @param kitchenMissing the orders the kitchen screen itself counts as missing (gaps in the order service's
 *     numbering that never arrived)
 * @param dashboardBacklog events the analytics dashboard has not read yet, from where the current act keeps
 *     them: the Kafka group's lag, its RabbitMQ queue, or the in-memory feed
 * @param kitchenBacklog the same for the kitchen screen (its queue, or its Kafka group's lag)
 */
record Snapshot(long elapsedNanos, long accepted, long throttled, long unavailable, long failed,
        @Nullable OrderServiceStats orderService, long kitchenTotal, long kitchenMissing, long dashboardTotal,
        double dashboardCapacity, long dashboardBacklog, long kitchenBacklog) {

    double elapsedSeconds() {
        return elapsedNanos / 1e9;
    }

    boolean orderServiceUp() {
        return orderService != null;
    }

    /** {@code GET /api/stats} of the order service. */
    record OrderServiceStats(String act, String strategy, String run, long placed, long feedBuffered,
            long feedBufferedBytes, long feedDelivered, long feedDropped, long feedRejected, long heapUsed,
            long heapUsedAfterGc, long heapMax, long heapOldGenerationMax) {

        boolean memoryFeed() {
            return Act.MEMORY_FEED.id().equals(act);
        }

        /** What an in-memory feed may grow to before the service runs out of heap ({@link LessonArithmetic#feedRoomBytes}). */
        double feedBudget() {
            return LessonArithmetic.feedRoomBytes(heapUsedAfterGc, heapMax, heapOldGenerationMax);
        }
    }
}
