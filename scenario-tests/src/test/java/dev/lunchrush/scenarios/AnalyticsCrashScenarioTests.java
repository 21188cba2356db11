package dev.lunchrush.scenarios;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.chaos.TheLog;
import dev.lunchrush.events.Topology;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.testing.ServiceProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Exact counts across a crash, in act 4: while orders stream into the log, the analytics dashboard
 * and the kitchen screen are killed with SIGKILL and started again on the same data folder. Each
 * resumes where it stopped (its counts survive, it does not start over from the log's start), and in
 * the end the dashboard's numbers are exactly the log's contents, and the screen shows every order of
 * the log once.
 */
@SideBySide
class AnalyticsCrashScenarioTests {

    private static final int ORDERS = 2000;
    // 20 s of orders: the dashboard (250/s) keeps up, so it is in the middle of its work when killed
    private static final double ORDERS_PER_SECOND = 100;
    private static final long KILL_AFTER = 300;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            .environment("kitchen-screen", Map.of("LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN", "5000"))
            .inAct("{\"act\":\"log\"}");

    @Test
    void killedMidStreamTheReadersResumeAndEndWithExactCounts() throws Exception {
        Menu menu = Orders.menu(stack);
        CompletableFuture<List<Orders.Placed>> stream = CompletableFuture.supplyAsync(
                () -> Orders.place(stack, Orders.random(menu, ORDERS, 99L), ORDERS_PER_SECOND, 4));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> dashboardTotal() >= KILL_AFTER && kitchenTotal() >= KILL_AFTER);
        long dashboardBeforeKill = dashboardTotal();
        long kitchenBeforeKill = kitchenTotal();
        ServiceProcess dashboard = stack.service("analytics-dashboard");
        ServiceProcess kitchen = stack.service("kitchen-screen");
        dashboard.kill();
        kitchen.kill();
        assertThat(stream).as("orders still streaming at the kill").isNotDone();

        CompletableFuture.allOf(
                CompletableFuture.runAsync(() -> dashboard.restart(Stack.START_TIMEOUT)),
                CompletableFuture.runAsync(() -> kitchen.restart(Stack.START_TIMEOUT))).get(400, TimeUnit.SECONDS);
        // Both come back with what they had counted: they resume, they do not start over.
        assertThat(dashboardTotal()).as("dashboard's count after the restart").isGreaterThanOrEqualTo(dashboardBeforeKill);
        assertThat(kitchenTotal()).as("kitchen screen's count after the restart").isGreaterThanOrEqualTo(kitchenBeforeKill);

        List<Orders.Placed> placed = stream.get(300, TimeUnit.SECONDS);
        assertThat(placed).hasSize(ORDERS);

        // The truth is the log, read by the test itself.
        List<TheLog.Entry> log = LogOracle.testLog().readAll();
        assertThat(log).hasSize(ORDERS);

        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250))
                .until(() -> dashboardTotal() >= log.size() && kitchenTotal() >= log.size());
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .until(() -> dashboardTotal() == log.size() && kitchenTotal() == log.size());

        // Dashboard: total, per kitchen, per hour and per dish equal the log's, in UTC and in another zone.
        for (ZoneId zone : List.of(ZoneOffset.UTC, ZoneId.of("America/New_York"))) {
            Map<LocalDate, Orders.Day> expected = daysOf(log, zone);
            expected.forEach((date, day) -> assertThat(Orders.Day.of(stack.getJson("analytics-dashboard",
                    "/api/days/" + date + "?zone=" + zone.getId()))).as("dashboard's %s in %s", date, zone).isEqualTo(day));
        }

        // Kitchen screen: every order of the log shown once; what Kafka gave it again after the crash was
        // recognised and not shown twice.
        List<String> shown = new ArrayList<>();
        stack.getJson("kitchen-screen", "/api/kitchens").values()
                .forEach(column -> column.values().forEach(order -> shown.add(order.path("orderId").asString())));
        assertThat(shown).doesNotHaveDuplicates();
        assertThat(shown.stream().collect(Collectors.toSet()))
                .isEqualTo(log.stream().map(entry -> entry.event().orderId()).collect(Collectors.toSet()));
        JsonNode screen = stack.getJson("kitchen-screen", "/api/stats");
        assertThat(screen.path("missing").asLong()).isZero();

        // The dashboard's group stands at the end of the log.
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(LogOracle.testLog().committed(Topology.ORDERS_TOPIC, Topology.ANALYTICS_GROUP)).isEqualTo(LogOracle.testLog().nonEmptyEndOffsets(Topology.ORDERS_TOPIC)));
    }

    private static Map<LocalDate, Orders.Day> daysOf(List<TheLog.Entry> log, ZoneId zone) {
        Map<LocalDate, Orders.Day> days = new java.util.TreeMap<>();
        for (TheLog.Entry entry : log) {
            days.merge(entry.event().placedAt().atZone(zone).toLocalDate(), Orders.Day.empty()
                    .add(entry.event().kitchenId(), entry.event().placedAt(), entry.event().items(), zone), Orders::sum);
        }
        return days;
    }

    private static long dashboardTotal() {
        return LogOracle.dashboardTotal(stack);
    }

    private static long kitchenTotal() {
        return LogOracle.kitchenTotal(stack);
    }
}
