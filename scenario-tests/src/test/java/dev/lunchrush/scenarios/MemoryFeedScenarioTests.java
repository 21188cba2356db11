package dev.lunchrush.scenarios;

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
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * Act 3, {@code memory-feed}, at a small scale: the order service in a small heap under the stack's collector
 * ({@code infra/jvm/order-service.env}), which leaves the feed a budget of the old generation less the service's
 * own live data, under an overload against an analytics job that takes 50 events/s, each driven by
 * {@code ./demo rush}.
 * <ul>
 * <li>{@code unbounded} dies of a real OutOfMemoryError when the feed has eaten the budget: it stops answering
 * within 25% of the time that the budget, the measured rates and the measured event size predict, its process
 * exits within seconds of that, and the rush reports as lost the events that were in the feed. The death is
 * dated by the service's last answer, not by its process's exit: a service that no longer serves is dead to its
 * clients, whatever its process does;
 * <li>{@code block}, {@code drop} and {@code throttle}, each under an overload for a quarter longer, keep the
 * same small heap flat, and account for every order exactly. {@code drop} gets 250 orders/s, five times
 * the job: at 500/s for the 6 minutes of its run the generator fell behind on a 2-core machine (a rush not
 * sent at its rate ran past its time limit). {@code block} gets 100/s: every order waits for room, so the orders in flight are
 * the rate times the wait, and the generator's in-flight limit must hold them. {@code throttle} gets
 * 55/s into a feed of 100: a throttled order comes back after {@code Retry-After} until it is placed,
 * so under any overload the client's retries grow with time (by the surplus every second); at 55/s
 * they stay within what a 2-core machine answers. The feeds are small enough to be full within the first
 * third of a run (block's 1,000 at 50/s of surplus in 20 s, throttle's 100 at 5/s in 20 s), so that most of
 * the heap's readings are of a full feed.
 * </ul>
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MemoryFeedScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(MemoryFeedScenarioTests.class);

    private static final long MIB = 1024 * 1024;
    private static final int HEAP_MIB = 56;
    private static final int YOUNG_MIB = 8;
    /**
     * What the feed can fill: the old generation. Under the stack's collector the feed's pages (larger than the
     * pretenuring threshold) are allocated straight into the old generation, so the heap is exhausted when a page
     * finds no room there after a full collection, with the young generation empty; the feed's room is the old
     * generation less the service's own live data, as {@code ./demo rush} and the control room count it.
     */
    private static final long OLD_GENERATION_BYTES = (HEAP_MIB - YOUNG_MIB) * MIB;
    /**
     * How long the order service's process may outlive its last answer: a service past its budget exits of its
     * OutOfMemoryError at once ({@code -XX:+ExitOnOutOfMemoryError}), it does not linger unanswering.
     */
    private static final double EXITS_WITHIN_SECONDS = 10;
    /** Orders per second offered to unbounded and drop: ten times what the job takes. */
    private static final double RATE = 500;
    private static final double JOB_RATE = 50;
    private static final double DROP_RATE = 250;
    private static final int FEED_CAPACITY = 1000;
    /**
     * What a bounded run lasts at least, as a multiple of the time unbounded took to die: past the death, with its
     * heap's floor flat once its buffer is full (once full, a bounded feed holds the same whatever the run's length;
     * twice as long cost the suite 4.5 more minutes and showed nothing more).
     */
    private static final double LONGER = 1.25;
    /** The feed keeps an event's bytes and 4 bytes of length (PagedEvents). */
    private static final int BYTES_KEPT_PER_EVENT_BESIDES_ITS_OWN = 4;

    /**
     * The stack's collector and its death ({@code infra/jvm/order-service.env}): the serial collector with the
     * feed's pages pretenured, so that a page that finds no room after a full collection is an OutOfMemoryError
     * at once, and the JVM exits of it. A collector that gives up only on its time spent collecting (the parallel
     * collector's overhead limit) lets a full heap whose job still frees a few events a second collect back to
     * back, not answering, long before its process ends.
     */
    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            .jvm("order-service", List.of("-Xmx" + HEAP_MIB + "m", "-Xms" + HEAP_MIB + "m", "-Xmn" + YOUNG_MIB + "m",
                    "-XX:+UseSerialGC", "-XX:PretenureSizeThreshold=512k", "-XX:+ExitOnOutOfMemoryError",
                    "-XX:TieredStopAtLevel=1"));

    private static Path home;
    /** When unbounded stopped answering, seconds into its rush; what the bounded runs must outlast. */
    private static double unboundedDiedAt = Double.NaN;

    @BeforeAll
    static void prepare() throws Exception {
        home = Files.createDirectories(stack.dataRoot().resolve("demo-home"));
    }

    @Test
    @Order(1)
    void unboundedDiesOfOutOfMemoryWhenTheBudgetIsFullAndTheFeedDiesWithIt() throws Exception {
        stack.switchAct("{\"act\":\"memory-feed\",\"strategy\":\"unbounded\"}");
        Rush.registerOrderService(stack, home);
        long liveBefore = liveHeap();
        long budget = OLD_GENERATION_BYTES - liveBefore;
        log.info("order service's live heap before the rush {} bytes: the feed's budget is {} bytes", liveBefore, budget);
        assertThat(budget).as("budget left to the feed").isGreaterThan(12 * MIB);
        JsonNode kitchenBefore = stack.getJson("kitchen-screen", "/api/stats");
        JsonNode dashboardBefore = stack.getJson("analytics-dashboard", "/api/stats");

        // planned for three times as long as the prediction: it must die well before the end
        double planned = budget / ((RATE - JOB_RATE) * 1000.0);
        Rush.Report report = Rush.run(stack, home, Duration.ofMinutes(8), List.of("--profile", "constant",
                "--rate", number(RATE), "--duration", Math.round(3 * planned) + "s",
                "--dashboard-capacity", number(JOB_RATE), "--budget-mb", number(budget / 1e6),
                // few connections: each keeps buffers on the service's heap, which would eat the budget
                "--max-in-flight", "64", "--seed", "31"));

        // the real death: the process is gone, of an OutOfMemoryError in its heap, within seconds of its last answer
        assertThat(stack.service("order-service").waitFor(Duration.ofSeconds(30))).as("order service exited").isTrue();
        assertThat(stack.service("order-service").log()).contains("OutOfMemoryError");
        JsonNode died = report.json().path("orderServiceDied");
        assertThat(died.isObject()).as("the rush saw the order service die:\n%s", report.output()).isTrue();
        double exitedAt = died.path("atSeconds").asDouble();
        unboundedDiedAt = lastAnswer(report.json().path("snapshots"));
        log.info("unbounded answered last at {} s, its process exited at {} s", unboundedDiedAt, exitedAt);
        assertThat(exitedAt - unboundedDiedAt).as("seconds from its last answer (%.1f s) to its exit (%.1f s)",
                unboundedDiedAt, exitedAt).isLessThan(EXITS_WITHIN_SECONDS);

        // when: the budget over the growth the rush measured (surplus × bytes kept per event). The surplus is
        // the one of the service's healthy first half of life: in its last seconds, full collections slow
        // its intake down, which is the dying, not the rates that kill it.
        double surplus = slope(report.json().path("snapshots"), 2, unboundedDiedAt / 2);
        double bytesPerEvent = report.json().path("measuredRates").path("eventBytes").asDouble()
                + BYTES_KEPT_PER_EVENT_BESIDES_ITS_OWN;
        double predicted = budget / (surplus * bytesPerEvent);
        log.info("unbounded died at {} s; predicted {} s from a budget of {} bytes, surplus {}/s, {} bytes an event",
                unboundedDiedAt, predicted, budget, surplus, bytesPerEvent);
        assertThat(surplus).as("measured surplus, events/s").isGreaterThan(0.5 * (RATE - JOB_RATE));
        // Within 25%: in its last seconds full collections come back to back and slow the intake down, which makes
        // the death a little late against the arithmetic of its healthy life.
        assertThat(unboundedDiedAt).as("death, seconds into the rush, against %.1f s predicted", predicted)
                .isCloseTo(predicted, within(0.25 * predicted));

        // what was lost: the feed at the death, as the readers tell it once they have settled. Every order
        // entered the feed before it was sent to the kitchen's queue, and got its 201 after that; so the
        // kitchen's count lies between the 201s and the orders that entered the feed.
        long delivered = settled("analytics-dashboard", stats -> stats.path("received").path(Source.FEED).asLong())
                - dashboardBefore.path("received").path(Source.FEED).asLong();
        long kitchen = settled("kitchen-screen", stats -> stats.path("total").asLong()) - kitchenBefore.path("total").asLong();
        long lost = died.path("eventsLost").asLong();
        long unanswered = report.orders("timeouts") + report.orders("connectionErrors");
        assertThat(died.path("deliveredToJob").asLong()).as("delivered to the job, as the rush counts").isEqualTo(delivered);
        assertThat(died.path("acceptedIntoFeed").asLong()).as("accepted, as the rush counts").isEqualTo(report.orders("placed"));
        // The rush counts 201s; the feed it last saw (up to a second before the death) also held the orders
        // in flight then, which got no answer, less what the job took in that second.
        assertThat(lost).as("events lost, as the rush reports").isGreaterThan(budget / 2000)
                .isGreaterThanOrEqualTo(died.path("lastSeenBuffered").asLong() - unanswered - (long) JOB_RATE);
        assertThat(kitchen - delivered).as("the feed at the death, by the readers (%d requests had no answer)", unanswered)
                .isBetween(lost, lost + unanswered);

        stack.service("order-service").restart(Stack.START_TIMEOUT);
    }

    @Test
    @Order(2)
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
    @Order(3)
    void dropHoldsTheHeapFlatAndPlacedIsDeliveredPlusDropped() throws Exception {
        Bounded run = bounded("drop", DROP_RATE, FEED_CAPACITY);
        assertThat(run.dropped).as("dropped").isPositive();
        assertThat(run.report.orders("timeouts") + run.report.orders("connectionErrors")).as("unanswered").isZero();
        assertThat(run.report.orders("placed")).as("201s").isEqualTo(run.accepted);
        assertThat(run.delivered + run.dropped).as("delivered + dropped").isEqualTo(run.accepted);
        assertThat(run.kitchen).as("kitchen got every order").isEqualTo(run.accepted);
    }

    @Test
    @Order(4)
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
     * The overload under the strategy for a quarter longer than unbounded lived, with the order service's live
     * heap read every few seconds; then the job drains the feed and the counts settle.
     */
    private static Bounded bounded(String strategy, double rate, int capacity) throws Exception {
        if (!stack.service("order-service").isAlive()) {
            stack.service("order-service").restart(Stack.START_TIMEOUT);
        }
        stack.switchAct("{\"act\":\"memory-feed\",\"strategy\":\"" + strategy + "\",\"capacity\":" + capacity + "}");
        Rush.registerOrderService(stack, home);
        long pid = stack.service("order-service").pid();
        double unboundedLived = Double.isNaN(unboundedDiedAt)
                ? (OLD_GENERATION_BYTES - liveHeap()) / ((RATE - JOB_RATE) * 1000.0) : unboundedDiedAt;
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
        long delivered = settled("analytics-dashboard", stats -> stats.path("received").path(Source.FEED).asLong())
                - dashboardBefore.path("received").path(Source.FEED).asLong();
        JsonNode kitchenAfter = settledStats("kitchen-screen", stats -> stats.path("total").asLong());
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

    /**
     * When the order service stopped serving, seconds into the rush: the last of the rush's once-a-second snapshots
     * in which it answered, after which it never answered again.
     */
    private static double lastAnswer(JsonNode snapshots) {
        double last = Double.NaN;
        for (JsonNode snapshot : snapshots) {
            if (!snapshot.path("orderServiceDown").asBoolean(false)) {
                last = snapshot.path("seconds").asDouble();
            }
        }
        assertThat(last).as("a snapshot in which the order service answered").isNotNaN();
        return last;
    }

    /** Events per second by which placed outgrew read, between two times of the rush's snapshots. */
    private static double slope(JsonNode snapshots, double from, double to) {
        JsonNode first = null;
        JsonNode last = null;
        for (JsonNode snapshot : snapshots) {
            double at = snapshot.path("seconds").asDouble();
            if (at >= from && at <= to && snapshot.path("read").isNumber()) {
                first = first == null ? snapshot : first;
                last = snapshot;
            }
        }
        assertThat(first).as("snapshots between %s and %s s", from, to).isNotNull().isNotSameAs(last);
        double grown = (last.path("placed").asDouble() - last.path("read").asDouble())
                - (first.path("placed").asDouble() - first.path("read").asDouble());
        return grown / (last.path("seconds").asDouble() - first.path("seconds").asDouble());
    }

    /** The order service's live heap: used after a full collection asked for from outside. */
    private static long liveHeap() {
        return stack.statsAfterFullGc("order-service").path("heap").path("usedAfterGcBytes").asLong();
    }

    private static long settled(String module, java.util.function.ToLongFunction<JsonNode> count) {
        return count.applyAsLong(settledStats(module, count));
    }

    /** The module's stats once the count has not moved for 3 s. */
    private static JsonNode settledStats(String module, java.util.function.ToLongFunction<JsonNode> count) {
        JsonNode[] last = {stack.getJson(module, "/api/stats")};
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(3)).until(() -> {
            JsonNode now = stack.getJson(module, "/api/stats");
            boolean still = count.applyAsLong(now) == count.applyAsLong(last[0]);
            last[0] = now;
            return still;
        });
        return last[0];
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.format(java.util.Locale.ROOT, "%.3f", value);
    }
}
