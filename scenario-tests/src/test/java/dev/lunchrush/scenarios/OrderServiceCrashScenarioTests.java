package dev.lunchrush.scenarios;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.chaos.OrderStream;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 4 with the writer killed: {@code kill -9} of the order service while orders stream in at 100/s,
 * then a restart, and the stream goes on. The oracle is the log, read by the test: every order that got
 * a 201 is in it, once; an order is in it without a 201 only if its request got no answer (its outcome
 * was unknown to the client); a request that could not even connect wrote nothing. Each reader counts
 * exactly the log.
 */
@SideBySide
class OrderServiceCrashScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(OrderServiceCrashScenarioTests.class);

    private static final double ORDERS_PER_SECOND = 100;
    private static final long KILL_AFTER = 800;
    private static final long AFTER_RESTART = 500;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            .environment("kitchen-screen", Map.of("LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN", "10000"))
            .inAct("{\"act\":\"log\"}");

    @Test
    void everyAcknowledgedOrderIsInTheLogOnceAndEachReaderCountsTheLog() {
        Set<String> acknowledged;
        long unanswered;
        try (OrderStream orders = OrderStream.start(stack.uri("order-service", ""), Orders.menu(stack), ORDERS_PER_SECOND, 7L)) {
            acknowledged = orders.acknowledged;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> acknowledged.size() >= KILL_AFTER);
            stack.service("order-service").kill();
            log.info("order service killed after {} acknowledged orders", acknowledged.size());
            stack.service("order-service").restart(Stack.START_TIMEOUT);
            long acknowledgedAtRestart = acknowledged.size();
            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(50))
                    .until(() -> acknowledged.size() >= acknowledgedAtRestart + AFTER_RESTART);
            assertThat(orders.stop()).as("requests finished").isTrue();
            log.info(orders.summary());
            assertThat(orders.otherAnswers).as("answers other than 201 and 503").isEmpty();
            assertThat(orders.notConnected.get() + orders.unanswered.get()).as("requests that met the dead service").isPositive();
            assertThat(acknowledged.size()).as("acknowledged after the restart")
                    .isGreaterThanOrEqualTo((int) (acknowledgedAtRestart + AFTER_RESTART));
            unanswered = orders.unanswered.get();
        }

        LogOracle.holds(stack, TestBrokers.kafkaBootstrapServers(), acknowledged, unanswered);
    }
}
