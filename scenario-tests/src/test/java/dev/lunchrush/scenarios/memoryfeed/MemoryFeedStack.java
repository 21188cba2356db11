package dev.lunchrush.scenarios.memoryfeed;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.scenarios.Stack;

import static org.awaitility.Awaitility.await;

/**
 * Act 3's stack as its scenarios run it: the order service, the kitchen screen and the dashboard, the order service
 * in a small heap under the stack's collector ({@code infra/jvm/order-service.env}), which leaves the feed a budget
 * of the old generation less the service's own live data; an overload of {@value #RATE} orders/s against an
 * analytics job that takes {@value #JOB_RATE} events/s. What {@link MemoryFeedScenarioTests} kills and
 * {@link BoundedFeedScenarioTests} keeps alive, and what both read of it.
 */
final class MemoryFeedStack {

    static final long MIB = 1024 * 1024;
    private static final int HEAP_MIB = 56;
    private static final int YOUNG_MIB = 8;
    /**
     * What the feed can fill: the old generation. Under the stack's collector the feed's pages (larger than the
     * pretenuring threshold) are allocated straight into the old generation, so the heap is exhausted when a page
     * finds no room there after a full collection, with the young generation empty; the feed's room is the old
     * generation less the service's own live data, as {@code ./demo rush} and the control room count it.
     */
    static final long OLD_GENERATION_BYTES = (HEAP_MIB - YOUNG_MIB) * MIB;
    /** Orders per second offered to unbounded: ten times what the job takes. */
    static final double RATE = 500;
    static final double JOB_RATE = 50;

    private MemoryFeedStack() {
    }

    /**
     * The stack, its order service under the stack's collector and its death: the serial collector with the feed's
     * pages pretenured, so that a page that finds no room after a full collection is an OutOfMemoryError at once,
     * and the JVM exits of it. A collector that gives up only on its time spent collecting (the parallel
     * collector's overhead limit) lets a full heap whose job still frees a few events a second collect back to
     * back, not answering, long before its process ends.
     */
    static Stack stack() {
        return new Stack("order-service", "kitchen-screen", "analytics-dashboard")
                .jvm("order-service", List.of("-Xmx" + HEAP_MIB + "m", "-Xms" + HEAP_MIB + "m", "-Xmn" + YOUNG_MIB + "m",
                        "-XX:+UseSerialGC", "-XX:PretenureSizeThreshold=512k", "-XX:+ExitOnOutOfMemoryError",
                        "-XX:TieredStopAtLevel=1"));
    }

    /** The order service's live heap: used after a full collection asked for from outside. */
    static long liveHeap(Stack stack) {
        return stack.statsAfterFullGc("order-service").path("heap").path("usedAfterGcBytes").asLong();
    }

    static long settled(Stack stack, String module, ToLongFunction<JsonNode> count) {
        return count.applyAsLong(settledStats(stack, module, count));
    }

    /** The module's stats once the count has not moved for 3 s. */
    static JsonNode settledStats(Stack stack, String module, ToLongFunction<JsonNode> count) {
        JsonNode[] last = {stack.getJson(module, "/api/stats")};
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(3)).until(() -> {
            JsonNode now = stack.getJson(module, "/api/stats");
            boolean still = count.applyAsLong(now) == count.applyAsLong(last[0]);
            last[0] = now;
            return still;
        });
        return last[0];
    }

    /** A number as the rush's options take it. */
    static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(Locale.ROOT, "%.3f", value);
    }
}
