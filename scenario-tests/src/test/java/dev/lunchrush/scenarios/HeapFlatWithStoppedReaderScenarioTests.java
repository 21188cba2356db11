package dev.lunchrush.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.load.menu.Menu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 4's promise to the writer: with the analytics dashboard stopped and orders still arriving, the
 * backlog lives in the log, not in the order service. The order service's live heap (measured after
 * a full collection) stays flat, far below what a buffer of the unread orders would need, while the
 * backlog monitor counts exactly the orders placed since the reader stopped as unread.
 */
@SideBySide
class HeapFlatWithStoppedReaderScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(HeapFlatWithStoppedReaderScenarioTests.class);

    private static final int WARM_UP_ORDERS = 600;
    private static final int ORDERS_WHILE_STOPPED = 9000;
    private static final double ORDERS_PER_SECOND = 300;
    private static final String STOPPED_READER = "kafka:analytics-dashboard";
    private static final int READINGS_AFTER_STREAM = 4;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "analytics-dashboard", "backlog-monitor")
            .inAct("{\"act\":\"log\"}");

    @Test
    void theOrderServicesHeapStaysFlatWhileTheStoppedReadersBacklogGrowsInTheLog() throws Exception {
        Menu menu = Orders.menu(stack);
        // Warm up the write path, let the dashboard read everything, then stop it (SIGTERM: its last
        // offsets are committed, so the backlog starts at 0).
        assertThat(Orders.place(stack, Orders.random(menu, WARM_UP_ORDERS, 1L), ORDERS_PER_SECOND, 8)).hasSize(WARM_UP_ORDERS);
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong()
                        == WARM_UP_ORDERS && unread(STOPPED_READER) == 0);
        stack.service("analytics-dashboard").stop();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> unread(STOPPED_READER) == 0);
        long placedBefore = stack.getJson("order-service", "/api/stats").path("placed").asLong();

        CompletableFuture<List<Orders.Placed>> stream = CompletableFuture.supplyAsync(() ->
                Orders.place(stack, Orders.random(menu, ORDERS_WHILE_STOPPED, 2L), ORDERS_PER_SECOND, 8));
        long started = System.nanoTime();
        List<long[]> samples = new ArrayList<>();
        List<Orders.Placed> placed = null;
        while (placed == null) {
            long liveHeap = liveHeapAfterFullGc();
            samples.add(new long[] {TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), liveHeap});
            try {
                placed = stream.get(1500, TimeUnit.MILLISECONDS);
            }
            catch (TimeoutException ex) {
                // still streaming: the next reading
            }
        }
        // A single reading can fall on a tooth of the saw (see below): after the stream, take the floor
        // of a few readings.
        long afterStream = Long.MAX_VALUE;
        for (int i = 0; i < READINGS_AFTER_STREAM; i++) {
            afterStream = Math.min(afterStream, liveHeapAfterFullGc());
            Thread.sleep(500);
        }
        assertThat(placed).hasSize(ORDERS_WHILE_STOPPED);
        assertThat(stack.getJson("order-service", "/api/stats").path("placed").asLong() - placedBefore)
                .isEqualTo(ORDERS_WHILE_STOPPED);

        // The backlog is in the log: exactly the orders placed since the reader stopped, no more, no less.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> unread(STOPPED_READER) == ORDERS_WHILE_STOPPED);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(500))
                .until(() -> unread(STOPPED_READER) == ORDERS_WHILE_STOPPED);

        // What a buffer in the order service would have grown by: at least the encoded unread orders.
        Set<String> unreadIds = placed.stream().map(Orders.Placed::orderId).collect(Collectors.toSet());
        long bufferBytes = LogOracle.testLog().readAll().stream().filter(entry -> unreadIds.contains(entry.event().orderId()))
                .mapToLong(entry -> OrderEventCodec.encode(entry.event()).length).sum();
        assertThat(bufferBytes).isGreaterThan(ORDERS_WHILE_STOPPED * 500L);

        // The first seconds of the stream are still warm-up (connections, JIT). After that the live heap
        // saw-tooths by a few MB (caches that fill and are trimmed: H2's pages, the producer's pooled
        // batches, metrics); what a buffer would show is its floor rising. So compare floors: the lowest
        // reading of the second half against the lowest of the first, and the floor after the stream
        // against the lowest of the first half.
        List<long[]> steady = samples.stream().filter(sample -> sample[0] >= 5_000).toList();
        assertThat(steady).as("heap readings after warm-up").hasSizeGreaterThanOrEqualTo(6);
        List<long[]> firstHalf = steady.subList(0, steady.size() / 2);
        List<long[]> secondHalf = steady.subList(steady.size() / 2, steady.size());
        long firstFloor = firstHalf.stream().mapToLong(sample -> sample[1]).min().orElseThrow();
        long secondFloor = secondHalf.stream().mapToLong(sample -> sample[1]).min().orElseThrow();
        log.info("live heap of the order service while {} orders went to the log: {} (ms, bytes); floors {} then {}; "
                + "after the stream {}; a buffer of them would hold at least {} bytes", ORDERS_WHILE_STOPPED,
                samples.stream().map(sample -> sample[0] + ":" + sample[1]).collect(Collectors.joining(" ")),
                firstFloor, secondFloor, afterStream, bufferBytes);
        assertThat(secondFloor - firstFloor).as("growth of the live heap's floor against a buffer of %d bytes", bufferBytes)
                .isLessThan(bufferBytes / 4);
        assertThat(afterStream - firstFloor).as("live heap's floor after the stream minus the first floor")
                .isLessThan(bufferBytes / 4);
    }

    private static long unread(String reader) {
        for (JsonNode node : stack.getJson("backlog-monitor", "/api/readers").values()) {
            if (reader.equals(node.path("reader").asString(""))) {
                return node.path("unread").asLong(-1);
            }
        }
        return -1;
    }

    /** The order service's heap after a full collection asked for from outside: what it really keeps. */
    private static long liveHeapAfterFullGc() {
        return stack.statsAfterFullGc("order-service").path("heap").path("usedAfterGcBytes").asLong();
    }
}
