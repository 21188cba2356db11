package dev.lunchrush.scenarios.memoryfeed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Source;
import dev.lunchrush.scenarios.Rush;
import dev.lunchrush.scenarios.SideBySide;
import dev.lunchrush.scenarios.Stack;

import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.JOB_RATE;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.MIB;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.OLD_GENERATION_BYTES;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.RATE;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.liveHeap;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.number;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.settled;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.settledStats;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 3, {@code memory-feed}, with a bounded feed, in the small heap that kills {@code unbounded}
 * ({@link MemoryFeedScenarioTests}): {@code block}, {@code drop} and {@code throttle}, each under an overload for a
 * quarter longer than unbounded's life (the feed's budget over the surplus), keep the heap flat and account for
 * every order exactly. {@code drop} gets 250 orders/s, five times the job: at 500/s for the 6 minutes of its run the
 * generator fell behind on a 2-core machine (a rush not sent at its rate ran past its time limit). {@code block}
 * gets 100/s: every order waits for room, so the orders in flight are the rate times the wait, and the generator's
 * in-flight limit must hold them. {@code throttle} gets 55/s into a feed of 100: a throttled order comes back after
 * {@code Retry-After} until it is placed, so under any overload the client's retries grow with time (by the surplus
 * every second); at 55/s they stay within what a 2-core machine answers. The feeds are small enough to be full
 * within the first third of a run (block's 1,000 at 50/s of surplus in 20 s, throttle's 100 at 5/s in 20 s), so
 * that most of the heap's readings are of a full feed. Its claims are counts and a flat heap, not rates: it runs
 * beside other scenarios.
 */
@SideBySide
class BoundedFeedScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(BoundedFeedScenarioTests.class);

    private static final double DROP_RATE = 250;
    private static final int FEED_CAPACITY = 1000;
    /**
     * What a bounded run lasts at least, as a multiple of the time unbounded takes to die: past the death, with its
     * heap's floor flat once its buffer is full (once full, a bounded feed holds the same whatever the run's length).
     */
    private static final double LONGER = 1.25;
    /** What unbounded is predicted to live on an event of about a kilobyte. */
    private static final double EVENT_BYTES = 1000;

    @RegisterExtension
    static final Stack stack = MemoryFeedStack.stack();

    private static Path home;

    @BeforeAll
    static void prepare() throws Exception {
        home = Files.createDirectories(stack.dataRoot().resolve("demo-home"));
    }

    @Test
    void blockHoldsTheHeapFlatNothingIsLostAndTheProducerAndTheKitchenWait() throws Exception {
        Bounded run = bounded("block", 100, FEED_CAPACITY);
        assertThat(run.report.orders("unavailable")).as("orders refused after waiting for room (503)").isPositive();
        // once the feed is full, a placed order has waited for room (up to the 2 s block timeout); the first third of
        // the run, while the feed fills, none waits, so the median says little and the slowest hundredth says it
        assertThat(run.report.json().path("latencyMillis").path("p99").asDouble())
                .as("latency of the slowest hundredth of the placed orders, ms: they waited for room").isGreaterThan(1000);
        // nothing lost: what entered the feed reached the job and the kitchen
        assertThat(run.delivered).as("delivered to the job").isEqualTo(run.accepted);
        assertThat(run.kitchen).as("kitchen got").isEqualTo(run.accepted);
        // the kitchen waits too: it got little more than the job's pace, far from the orders sent
        assertThat(run.kitchen).as("kitchen got, of %d sent", run.report.orders("sent"))
                .isLessThan((long) (JOB_RATE * 1.25 * run.seconds) + FEED_CAPACITY);
    }

    @Test
    void dropHoldsTheHeapFlatAndPlacedIsDeliveredPlusDropped() throws Exception {
        Bounded run = bounded("drop", DROP_RATE, FEED_CAPACITY);
        assertThat(run.dropped).as("dropped").isPositive();
        assertThat(run.report.orders("timeouts") + run.report.orders("connectionErrors")).as("unanswered").isZero();
        assertThat(run.report.orders("placed")).as("201s").isEqualTo(run.accepted);
        assertThat(run.delivered + run.dropped).as("delivered + dropped").isEqualTo(run.accepted);
        assertThat(run.kitchen).as("kitchen got every order").isEqualTo(run.accepted);
    }

    @Test
    void throttleHoldsTheHeapFlatAndEveryThrottledOrderIsPlacedOnce() throws Exception {
        Bounded run = bounded("throttle", 55, 100);
        assertThat(run.report.orders("throttled")).as("429s").isPositive();
        assertThat(run.report.orders("retried")).as("retried with the same Idempotency-Key").isPositive();
        assertThat(run.report.orders("timeouts") + run.report.orders("connectionErrors")).as("unanswered").isZero();
        // every 201 is one order in the feed (a retry never made a second one), and none was lost
        assertThat(run.report.orders("placed")).as("201s").isEqualTo(run.accepted);
        assertThat(run.delivered).as("delivered to the job").isEqualTo(run.accepted);
        assertThat(run.kitchen).as("kitchen got").isEqualTo(run.accepted);
        assertThat(run.kitchenDuplicates).as("orders the kitchen got twice").isZero();
    }

    private record Bounded(Rush.Report report, double seconds, long accepted, long delivered, long dropped, long kitchen,
            long kitchenDuplicates) {
    }

    /**
     * The overload under the strategy for a quarter longer than unbounded would live, with the order service's live
     * heap read every few seconds; then the job drains the feed and the counts settle.
     */
    private static Bounded bounded(String strategy, double rate, int capacity) throws Exception {
        if (!stack.service("order-service").isAlive()) {
            stack.service("order-service").restart(Stack.START_TIMEOUT);
        }
        stack.switchAct("{\"act\":\"memory-feed\",\"strategy\":\"" + strategy + "\",\"capacity\":" + capacity + "}");
        Rush.registerOrderService(stack, home);
        long pid = stack.service("order-service").pid();
        double unboundedLived = (OLD_GENERATION_BYTES - liveHeap(stack)) / ((RATE - JOB_RATE) * EVENT_BYTES);
        long seconds = (long) Math.ceil(LONGER * unboundedLived) + 2;
        JsonNode before = stack.getJson("order-service", "/api/stats");
        JsonNode kitchenBefore = stack.getJson("kitchen-screen", "/api/stats");
        JsonNode dashboardBefore = stack.getJson("analytics-dashboard", "/api/stats");

        CompletableFuture<Rush.Report> rush = CompletableFuture.supplyAsync(() -> {
            try {
                return Rush.run(stack, home, Duration.ofSeconds(seconds + 240), List.of("--profile", "constant",
                        "--rate", number(rate), "--duration", seconds + "s", "--dashboard-capacity", number(JOB_RATE),
                        "--max-in-flight", "250", "--request-timeout", "30s", "--seed", String.valueOf(strategy.hashCode())));
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        long started = System.nanoTime();
        List<long[]> readings = new ArrayList<>();
        Rush.Report report = null;
        while (report == null) {
            JsonNode stats = stack.statsAfterFullGc("order-service");
            readings.add(new long[] {TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                stats.path("heap").path("usedAfterGcBytes").asLong(), stats.path("feed").path("buffered").asLong()});
            try {
                report = rush.get(3, TimeUnit.SECONDS);
            }
            catch (TimeoutException ex) {
                // still rushing: the next reading
            }
        }
        assertThat(stack.service("order-service").isAlive()).as("order service alive after the %s run", strategy).isTrue();
        assertThat(stack.service("order-service").pid()).as("the same process").isEqualTo(pid);
        assertThat(report.json().path("orderServiceDied").isNull()).as("the rush saw no death").isTrue();

        // the job drains the feed quickly now, and the counts settle
        stack.dashboardCapacity(2000);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                .until(() -> stack.getJson("order-service", "/api/stats").path("feed").path("buffered").asLong() == 0);
        JsonNode after = stack.getJson("order-service", "/api/stats");
        long accepted = after.path("feed").path("accepted").asLong() - before.path("feed").path("accepted").asLong();
        long dropped = after.path("feed").path("dropped").asLong() - before.path("feed").path("dropped").asLong();
        long delivered = settled(stack, "analytics-dashboard", stats -> stats.path("received").path(Source.FEED).asLong())
                - dashboardBefore.path("received").path(Source.FEED).asLong();
        JsonNode kitchenAfter = settledStats(stack, "kitchen-screen", stats -> stats.path("total").asLong());
        log.info("{}: accepted {}, delivered {}, dropped {}, kitchen {}, rush orders {}", strategy, accepted, delivered,
                dropped, kitchenAfter.path("total").asLong() - kitchenBefore.path("total").asLong(),
                report.json().path("orders"));
        // Heap flat: once the bounded things are full (the feed at its capacity; under block, the requests
        // waiting for room and their connections), the live heap stays where it is: the floor of the second
        // half no higher than the first's, give or take a few MB of caches. (Single readings saw-tooth by up
        // to 10 MB while the kitchen's queue pushes back on the publisher; what a buffer shows is its floor
        // rising.) An unbounded feed would have grown by the whole budget in half the time and died.
        int full = 0;
        while (full < readings.size() && readings.get(full)[2] < 0.9 * capacity) {
            full++;
        }
        List<long[]> steady = readings.subList(Math.min(readings.size(), full + 2), readings.size());
        log.info("{}: live heap and feed during {} s of overload (ms:bytes:events) {}", strategy, seconds,
                readings.stream().map(r -> r[0] + ":" + r[1] + ":" + r[2]).collect(Collectors.joining(" ")));
        assertThat(steady).as("%s: heap readings once the feed was full", strategy).hasSizeGreaterThanOrEqualTo(8);
        long firstFloor = steady.subList(0, steady.size() / 2).stream().mapToLong(r -> r[1]).min().orElseThrow();
        long secondFloor = steady.subList(steady.size() / 2, steady.size()).stream().mapToLong(r -> r[1]).min().orElseThrow();
        long highest = steady.stream().mapToLong(r -> r[1]).max().orElseThrow();
        log.info("{}: once full, floors {} then {}, highest {}", strategy, firstFloor, secondFloor, highest);
        assertThat(secondFloor - firstFloor).as("%s: growth of the live heap's floor", strategy).isLessThan(4 * MIB);

        return new Bounded(report, seconds, accepted, delivered, dropped,
                kitchenAfter.path("total").asLong() - kitchenBefore.path("total").asLong(),
                kitchenAfter.path("duplicatesIgnored").asLong() - kitchenBefore.path("duplicatesIgnored").asLong());
    }
}
