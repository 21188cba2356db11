package dev.lunchrush.scenarios;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.chaos.TheLog;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fault tests' oracle, the log read by the test itself: every order that got a 201 is in it once,
 * no more are in it without a 201 than had an unknown outcome, and each reader of the log (the
 * dashboard, the kitchen screen) counts exactly the log and shows no order twice.
 */
final class LogOracle {

    private static final Logger log = LoggerFactory.getLogger(LogOracle.class);

    private LogOracle() {
    }

    /**
     * @param unknownOutcomes the requests whose order may or may not have been written (no answer, or a
     * 503 after the send timed out)
     */
    static void holds(Stack stack, String bootstrapServers, Set<String> acknowledged, long unknownOutcomes) {
        List<String> logged = new TheLog(bootstrapServers).readAll().stream().map(entry -> entry.event().orderId()).toList();
        Set<String> inLog = Set.copyOf(logged);
        long withoutAck = inLog.stream().filter(id -> !acknowledged.contains(id)).count();
        log.info("{} orders in the log, {} of them without a 201", logged.size(), withoutAck);
        assertThat(logged).as("orders in the log").doesNotHaveDuplicates();
        assertThat(inLog).as("every acknowledged order is in the log").containsAll(acknowledged);
        assertThat(withoutAck).as("orders in the log without a 201, against %d of unknown outcome", unknownOutcomes)
                .isLessThanOrEqualTo(unknownOutcomes);

        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> dashboardTotal(stack) >= logged.size() && kitchenTotal(stack) >= logged.size());
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
                .until(() -> dashboardTotal(stack) == logged.size() && kitchenTotal(stack) == logged.size());
        List<String> shown = new ArrayList<>();
        stack.getJson("kitchen-screen", "/api/kitchens").values()
                .forEach(column -> column.values().forEach(order -> shown.add(order.path("orderId").asString())));
        assertThat(shown).as("orders on the kitchen screen").doesNotHaveDuplicates();
        assertThat(shown.stream().collect(Collectors.toSet())).as("orders on the kitchen screen").isEqualTo(inLog);
    }

    /** The orders topic of the tests' Kafka ({@link TestBrokers}), read by the test itself. */
    static TheLog testLog() {
        return new TheLog(TestBrokers.kafkaBootstrapServers());
    }

    /** What the analytics dashboard has counted from the log. */
    static long dashboardTotal(Stack stack) {
        return stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong();
    }

    /** What the kitchen screen has received from the log. */
    static long kitchenTotal(Stack stack) {
        return stack.getJson("kitchen-screen", "/api/stats").path("received").path("kafka").asLong();
    }
}
