package dev.lunchrush.scenarios;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.chaos.OrderStream;
import dev.lunchrush.testing.KafkaBrokerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 4 with the log's broker failing under a stream of 100 orders/s: a real Kafka broker in a process
 * of its own gets {@code kill -9}, stays dead for 10 s and comes back on its data; then it is frozen
 * ({@code SIGSTOP}) for 20 s and let go ({@code SIGCONT}). While it fails every request is answered,
 * 503 or 201, within the order service's send timeout (9 s) and a margin; none hangs. The oracle is the
 * log: every order that got a 201 is in it once; one in it without a 201 had an unknown outcome (a 503
 * after its send timed out); each reader counts exactly the log.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaBrokerFaultScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(KafkaBrokerFaultScenarioTests.class);

    private static final double ORDERS_PER_SECOND = 100;
    private static final long BEFORE_FAULT = 500;
    private static final long AFTER_FAULT = 500;
    /** The order service's lunchrush.kafka.send-timeout, and what a loaded machine adds to it. */
    private static final long LONGEST_ANSWER_MILLIS = 9_000 + 6_000;

    static final KafkaBrokerProcess broker = KafkaBrokerProcess.start(
            Path.of("target", "scenario-data", "kafka-" + UUID.randomUUID()));

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            .environment("order-service", Map.of("SPRING_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers()))
            .environment("kitchen-screen", Map.of("SPRING_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers(),
                    "LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN", "10000"))
            .environment("analytics-dashboard", Map.of("SPRING_KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers()))
            .inAct("{\"act\":\"log\"}");

    /** Over both faults: what got a 201, and how many got a 503. */
    private static final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private static final AtomicLong refused = new AtomicLong();

    @AfterAll
    static void stopBroker() {
        // the services first (JUnit ends the stack extension after this method), so that none waits on it
        stack.close();
        broker.close();
    }

    @Test
    @Order(1)
    void killedAndRestartedTheBrokerLosesNoAcknowledgedOrderAndNoRequestHangs() {
        streamThrough("kill -9", () -> {
            broker.kill();
            sleep(Duration.ofSeconds(10));
            broker.restart();
        });
    }

    @Test
    @Order(2)
    void frozenAndLetGoTheBrokerLosesNoAcknowledgedOrderAndNoRequestHangs() {
        streamThrough("SIGSTOP", () -> {
            broker.freeze();
            sleep(Duration.ofSeconds(20));
            broker.thaw();
        });
    }

    private static void streamThrough(String fault, Runnable failure) {
        try (OrderStream orders = OrderStream.start(stack.uri("order-service", ""), Orders.menu(stack), ORDERS_PER_SECOND,
                fault.hashCode())) {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> orders.acknowledged.size() >= BEFORE_FAULT);
            long acknowledgedBefore = orders.acknowledged.size();
            failure.run();
            long acknowledgedDuring = orders.acknowledged.size() - acknowledgedBefore;
            long refusedDuring = orders.refused.get();
            long acknowledgedAfter = orders.acknowledged.size();
            await().atMost(Duration.ofSeconds(300)).pollInterval(Duration.ofMillis(50))
                    .until(() -> orders.acknowledged.size() >= acknowledgedAfter + AFTER_FAULT);
            assertThat(orders.stop()).as("requests finished").isTrue();
            log.info("{}: {}; slowest answer {} ms; {} acknowledged and {} refused during the fault", fault, orders.summary(),
                    orders.slowestMillis.get(), acknowledgedDuring, refusedDuring);
            acknowledged.addAll(orders.acknowledged);
            refused.addAndGet(orders.refused.get());

            // during the fault: clean refusals within the timeout, never a hang; after it, intake goes on
            assertThat(orders.otherAnswers).as("answers other than 201 and 503").isEmpty();
            assertThat(refusedDuring).as("503s during the fault").isPositive();
            assertThat(orders.unanswered.get() + orders.notConnected.get()).as("requests without an answer").isZero();
            assertThat(orders.slowestMillis.get()).as("slowest answer, ms").isLessThan(LONGEST_ANSWER_MILLIS);
            assertThat(orders.acknowledged.size()).as("acknowledged after the fault")
                    .isGreaterThanOrEqualTo((int) (acknowledgedAfter + AFTER_FAULT));
        }

        // a 503 after the send timed out may have been written all the same
        LogOracle.holds(stack, broker.bootstrapServers(), acknowledged, refused.get());
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
