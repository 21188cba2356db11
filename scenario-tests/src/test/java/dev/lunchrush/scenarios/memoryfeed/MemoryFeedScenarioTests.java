package dev.lunchrush.scenarios.memoryfeed;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Source;
import dev.lunchrush.scenarios.Rush;
import dev.lunchrush.scenarios.Stack;

import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.JOB_RATE;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.MIB;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.OLD_GENERATION_BYTES;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.RATE;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.liveHeap;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.number;
import static dev.lunchrush.scenarios.memoryfeed.MemoryFeedStack.settled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Act 3, {@code memory-feed}, at a small scale ({@link MemoryFeedStack}): {@code unbounded} dies of a real
 * OutOfMemoryError when the feed has eaten the budget: it stops answering within 25% of the time that the budget,
 * the measured rates and the measured event size predict, its process exits within seconds of that, and the rush
 * reports as lost the events that were in the feed. The death is dated by the service's last answer, not by its
 * process's exit: a service that no longer serves is dead to its clients, whatever its process does. A death's time
 * is a rate's consequence: this scenario runs alone. The bounded strategies, which outlive it, are
 * {@link BoundedFeedScenarioTests}.
 */
class MemoryFeedScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(MemoryFeedScenarioTests.class);

    /**
     * How long the order service's process may outlive its last answer: a service past its budget exits of its
     * OutOfMemoryError at once ({@code -XX:+ExitOnOutOfMemoryError}), it does not linger unanswering.
     */
    private static final double EXITS_WITHIN_SECONDS = 10;
    /** The feed keeps an event's bytes and 4 bytes of length (PagedEvents). */
    private static final int BYTES_KEPT_PER_EVENT_BESIDES_ITS_OWN = 4;

    @RegisterExtension
    static final Stack stack = MemoryFeedStack.stack();

    private static Path home;

    @BeforeAll
    static void prepare() throws Exception {
        home = Files.createDirectories(stack.dataRoot().resolve("demo-home"));
    }

    @Test
    void unboundedDiesOfOutOfMemoryWhenTheBudgetIsFullAndTheFeedDiesWithIt() throws Exception {
        stack.switchAct("{\"act\":\"memory-feed\",\"strategy\":\"unbounded\"}");
        Rush.registerOrderService(stack, home);
        long liveBefore = liveHeap(stack);
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
        double unboundedDiedAt = lastAnswer(report.json().path("snapshots"));
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
        long delivered = settled(stack, "analytics-dashboard", stats -> stats.path("received").path(Source.FEED).asLong())
                - dashboardBefore.path("received").path(Source.FEED).asLong();
        long kitchen = settled(stack, "kitchen-screen", stats -> stats.path("total").asLong()) - kitchenBefore.path("total").asLong();
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
}
