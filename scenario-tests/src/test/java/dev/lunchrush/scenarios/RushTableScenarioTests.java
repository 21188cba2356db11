package dev.lunchrush.scenarios;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * {@code ./demo rush}'s closing table on a short scaled rush in the log act: 160 orders/s for 30 s
 * against an analytics job of 80/s, then 20/s for 10 s (the snapshots past the rush's end that its backlog is read
 * from; the catch-up is not judged here, the control room's act 4 judges it). The lesson's arithmetic says
 * 80 events/s of surplus and 2,400 events behind at the end of the rush; the measured table agrees
 * within 10%. The rates are what a 2-core machine running the services, Kafka, RabbitMQ and the
 * generator holds without falling behind (at 300/s the generator fell behind on such a machine, and
 * a rush that is not sent at its rate measures the generator, not the arithmetic).
 */
class RushTableScenarioTests {

    private static final double RATE = 160;
    private static final double JOB_RATE = 80;
    private static final int RUSH_SECONDS = 30;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "analytics-dashboard", "backlog-monitor")
            .inAct("{\"act\":\"log\"}");

    @Test
    void theMeasuredTableAgreesWithTheArithmeticOnSurplusAndBacklog() throws Exception {
        Path home = Files.createDirectories(stack.dataRoot().resolve("demo-home"));
        // as a teacher would: a few seconds of orders first, so that the measured rush does not start
        // with cold JVMs (their first seconds answer late and bend the measured rates)
        Rush.run(stack, home, Duration.ofMinutes(2), List.of("--profile", "constant", "--rate", "150",
                "--duration", "8s", "--dashboard-capacity", "2000", "--seed", "11"));
        long receivedBefore = settledDashboardReceived();
        Rush.Report report = Rush.run(stack, home, Duration.ofMinutes(5), List.of("--profile", "custom",
                "--rate", String.valueOf((int) RATE), "--duration", RUSH_SECONDS + "s", "--then-rate", "20",
                "--then-duration", "10s", "--dashboard-capacity", String.valueOf((int) JOB_RATE), "--seed", "12"));

        JsonNode surplus = report.line("surplus rate (in − out)");
        JsonNode backlog = report.line("backlog at the end of the rush");
        assertThat(surplus.path("predicted").asDouble()).isEqualTo(RATE - JOB_RATE);
        assertThat(backlog.path("predicted").asDouble()).isEqualTo((RATE - JOB_RATE) * RUSH_SECONDS);
        assertThat(surplus.path("measured").asDouble()).as("measured surplus, events/s:\n%s", report.output())
                .isCloseTo(RATE - JOB_RATE, within(0.1 * (RATE - JOB_RATE)));
        assertThat(backlog.path("measured").asDouble()).as("measured backlog at the end of the rush:\n%s", report.output())
                .isCloseTo((RATE - JOB_RATE) * RUSH_SECONDS, within(0.1 * (RATE - JOB_RATE) * RUSH_SECONDS));
        assertThat(surplus.path("differencePercent").asDouble()).isBetween(-10.0, 10.0);
        assertThat(backlog.path("differencePercent").asDouble()).isBetween(-10.0, 10.0);
        assertThat(report.orders("placed")).as("orders placed of those sent").isEqualTo(report.orders("sent"));
        assertThat(report.json().path("orderServiceDied").isNull()).isTrue();
        // every order the rush placed reached the dashboard in the end, once: the backlog was in the log
        stack.dashboardCapacity(2000);
        long placed = report.orders("placed");
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> dashboardReceived() - receivedBefore >= placed);
        }
        catch (ConditionTimeoutException ex) {
            // the assertion below says how many are missing
        }
        assertThat(settledDashboardReceived() - receivedBefore).as("orders the dashboard counted of the %d placed", placed)
                .isEqualTo(placed);
    }

    /** The dashboard's count once it no longer moves (two readings a second apart agree). */
    private static long settledDashboardReceived() {
        AtomicLong last = new AtomicLong(-1);
        await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ofSeconds(1)).pollInterval(Duration.ofSeconds(1))
                .until(() -> last.getAndSet(dashboardReceived()) == last.get());
        return last.get();
    }

    private static long dashboardReceived() {
        return stack.getJson("analytics-dashboard", "/api/stats").path("received").path(Source.KAFKA).asLong();
    }
}
