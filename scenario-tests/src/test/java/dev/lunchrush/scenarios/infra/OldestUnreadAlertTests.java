package dev.lunchrush.scenarios.infra;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.scenarios.Orders;
import dev.lunchrush.scenarios.SideBySide;
import dev.lunchrush.scenarios.Stack;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The alert rules of {@code infra/prometheus} fire in a real Prometheus against the real services:
 * with both readers of the log caught up, nothing alerts; kill the analytics dashboard (SIGKILL, a
 * crash) and keep placing orders, and {@code OldestUnreadEventTooOld} fires for its group, and for
 * it alone, once its oldest unread order is older than 60 s and has stayed so for 30 s; the same
 * Prometheus reports it down ({@code ServiceDown}).
 */
@SideBySide
class OldestUnreadAlertTests {

    private static final String STOPPED_READER = "kafka:analytics-dashboard";
    private static final String RUNNING_READER = "kafka:kitchen-screen";

    @Test
    void stoppingAReaderOfTheLogMakesTheOldestUnreadAlertFire(@TempDir Path data) {
        List<String> modules = List.of("order-service", "kitchen-screen", "analytics-dashboard", "backlog-monitor");
        try (Stack stack = new Stack(data.resolve("services"), modules)) {
            stack.start();
            String rabbitExporter = TestBrokers.rabbit().managementUri().getHost() + ":15692";
            Map<String, String> targets = Map.of(
                    "order-service", "127.0.0.1:" + stack.port("order-service"),
                    "kitchen-screen", "127.0.0.1:" + stack.port("kitchen-screen"),
                    "analytics-dashboard", "127.0.0.1:" + stack.port("analytics-dashboard"),
                    "backlog-monitor", "127.0.0.1:" + stack.port("backlog-monitor"),
                    "rabbitmq", rabbitExporter);
            try (LocalPrometheus prometheus = LocalPrometheus.start(data.resolve("prometheus"), targets)) {
                stack.switchAct("{\"act\":\"log\"}");
                Menu menu = Orders.menu(stack);
                // each must get its 201
                Orders.random(menu, 20, 1L).forEach(order -> Orders.place(stack, order));

                // Both readers caught up: the monitor sees nothing unread, Prometheus sees it too.
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> unread(stack, STOPPED_READER) == 0 && unread(stack, RUNNING_READER) == 0);
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() ->
                        prometheus.query("backlog_oldest_unread_age_seconds{reader=\"" + STOPPED_READER + "\"}") == 0);

                stack.service("analytics-dashboard").kill();
                Instant stopped = Instant.now();
                Orders.random(menu, 20, 2L).forEach(order -> Orders.place(stack, order));

                await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(2))
                        .until(() -> firing(prometheus, "OldestUnreadEventTooOld", "reader", STOPPED_READER));
                Duration untilFiring = Duration.between(stopped, Instant.now());

                // The rule: age > 60 s for 30 s. The age counts from the first unread order's placedAt, which
                // is just after the kill; scrape and evaluation every 5 s add at most a few seconds more.
                assertThat(untilFiring).isBetween(Duration.ofSeconds(85), Duration.ofSeconds(150));
                assertThat(prometheus.query("max(backlog_oldest_unread_age_seconds{reader=\"" + STOPPED_READER + "\"})"))
                        .isGreaterThan(85);
                assertThat(firing(prometheus, "OldestUnreadEventTooOld", "reader", RUNNING_READER))
                        .as("the kitchen screen keeps up: no alert for it").isFalse();
                assertThat(firing(prometheus, "ServiceDown", "job", "analytics-dashboard")).isTrue();
            }
        }
    }

    private static long unread(Stack stack, String reader) {
        String body = Stack.fetch(stack.uri("backlog-monitor", "/api/readers"), "application/json");
        if (body == null) {
            return -1;
        }
        for (JsonNode node : Stack.JSON.readTree(body).values()) {
            if (reader.equals(node.path("reader").asString(""))) {
                return node.path("unread").asLong(-1);
            }
        }
        return -1;
    }

    private static boolean firing(LocalPrometheus prometheus, String alert, String label, String value) {
        return prometheus.alerts().stream().anyMatch(node -> "firing".equals(node.path("state").asString(""))
                && alert.equals(node.path("labels").path("alertname").asString(""))
                && value.equals(node.path("labels").path(label).asString("")));
    }
}
