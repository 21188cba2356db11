package dev.lunchrush.scenarios;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.chaos.TheLog;
import dev.lunchrush.events.Topology;
import dev.lunchrush.load.menu.Menu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 4, the log, on a real Kafka broker with the packaged services: orders placed through
 * {@code POST /orders} are appended to the topic keyed by kitchen; the kitchen screen and the
 * analytics dashboard, each in its own consumer group, both get every one of them, and each kitchen's
 * orders in the order they were placed.
 */
@SideBySide
class LogScenarioTests {

    private static final int ORDERS = 400;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            // the screen's columns hold every order of the test, in the order the screen showed them
            .environment("kitchen-screen", Map.of("LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN", "2000"))
            .inAct("{\"act\":\"log\"}");

    @Test
    void bothGroupsGetEveryOrderAndEachKitchensOrdersInTheOrderTheyWerePlaced() {
        Menu menu = Orders.menu(stack);
        // each kitchen's orders one after the other, the kitchens side by side
        Map<String, List<Orders.Placed>> placed = Orders.placePerKitchenInSequence(stack, Orders.random(menu, ORDERS, 4L));
        List<Orders.Placed> all = placed.values().stream().flatMap(List::stream).toList();
        assertThat(all).hasSize(ORDERS);
        assertThat(placed.keySet()).hasSizeGreaterThan(1);

        // The log itself: every order once, keyed by its kitchen, stamped with its placedAt, each
        // kitchen in one partition in the order its orders were placed.
        List<TheLog.Entry> log = LogOracle.testLog().readAll();
        assertThat(log).hasSize(ORDERS);
        assertThat(log.stream().map(entry -> entry.event().orderId()).collect(Collectors.toSet()))
                .isEqualTo(all.stream().map(Orders.Placed::orderId).collect(Collectors.toSet()));
        for (TheLog.Entry entry : log) {
            assertThat(entry.key()).isEqualTo(entry.event().kitchenId());
            assertThat(entry.timestamp()).isEqualTo(entry.event().placedAt());
        }
        Map<String, List<String>> logOrderPerKitchen = new TreeMap<>();
        Map<String, Set<Integer>> partitionsPerKitchen = new TreeMap<>();
        for (TheLog.Entry entry : log) {
            logOrderPerKitchen.computeIfAbsent(entry.key(), k -> new ArrayList<>()).add(entry.event().orderId());
            partitionsPerKitchen.computeIfAbsent(entry.key(), k -> new java.util.TreeSet<>()).add(entry.partition());
        }
        assertThat(partitionsPerKitchen.values()).allSatisfy(partitions -> assertThat(partitions).hasSize(1));
        assertThat(logOrderPerKitchen).isEqualTo(ids(placed));

        // Both readers: every order, no more, and it stays so.
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250))
                .until(() -> kitchenReceived() >= ORDERS && dashboardReceived() >= ORDERS);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .until(() -> kitchenReceived() == ORDERS && dashboardReceived() == ORDERS);

        // The kitchen screen showed each kitchen's orders in the order they were placed, each once.
        Map<String, List<String>> shownPerKitchen = new TreeMap<>();
        stack.getJson("kitchen-screen", "/api/kitchens").properties().forEach(column -> {
            List<String> ids = new ArrayList<>();
            column.getValue().values().forEach(order -> ids.add(order.path("orderId").asString()));
            Collections.reverse(ids); // the column is newest first
            shownPerKitchen.put(column.getKey(), ids);
        });
        assertThat(shownPerKitchen).isEqualTo(ids(placed));
        JsonNode screen = stack.getJson("kitchen-screen", "/api/stats");
        assertThat(screen.path("duplicatesIgnored").asLong()).isZero();
        assertThat(screen.path("missing").asLong()).isZero();

        // The dashboard counted every order once: per kitchen, per hour and per dish, as the log says.
        Map<LocalDate, Orders.Day> expected = Orders.days(all, ZoneOffset.UTC);
        expected.forEach((date, day) -> assertThat(Orders.Day.of(stack.getJson("analytics-dashboard",
                "/api/days/" + date + "?zone=UTC"))).as("dashboard's numbers for %s", date).isEqualTo(day));

        // Both groups stand at the end of the log, each on its own offsets.
        await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            assertThat(LogOracle.testLog().committed(Topology.ORDERS_TOPIC, Topology.KITCHEN_GROUP)).isEqualTo(LogOracle.testLog().nonEmptyEndOffsets(Topology.ORDERS_TOPIC));
            assertThat(LogOracle.testLog().committed(Topology.ORDERS_TOPIC, Topology.ANALYTICS_GROUP)).isEqualTo(LogOracle.testLog().nonEmptyEndOffsets(Topology.ORDERS_TOPIC));
        });
    }

    private static Map<String, List<String>> ids(Map<String, List<Orders.Placed>> placed) {
        Map<String, List<String>> ids = new TreeMap<>();
        placed.forEach((kitchen, orders) -> ids.put(kitchen, orders.stream().map(Orders.Placed::orderId).toList()));
        return ids;
    }

    private static long kitchenReceived() {
        return stack.getJson("kitchen-screen", "/api/stats").path("received").path("kafka").asLong();
    }

    private static long dashboardReceived() {
        return stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong();
    }
}
