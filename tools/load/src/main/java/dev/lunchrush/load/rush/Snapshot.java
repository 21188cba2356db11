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

        /**
         * What an in-memory feed may grow to before the service runs out of heap: the heap's limit less what the
         * service keeps alive already (after the last collection, which a switch into act 3 makes a full one);
         * -1 when the service did not say. The whole heap, not the old generation alone: the job frees the feed's
         * oldest pages while the rush runs and the service's own young objects give way to pages at the end, so
         * the feed grew past the old generation's room before every death measured (act 3 at speed 10: 29.8 s
         * in, against 28.3 s from the heap's room and about 24 s from the old generation's).
         */
        long feedBudget() {
            long limit = heapMax > 0 ? heapMax : heapOldGenerationMax;
            return limit <= 0 || heapUsedAfterGc < 0 ? -1 : Math.max(0, limit - heapUsedAfterGc);
        }
    }
}
