package dev.lunchrush.scenarios;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.testing.KafkaBrokerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 4 with the log's broker killed: a real Kafka broker in a process of its own gets {@code kill -9}
 * while orders stream in at 100/s, stays dead for 10 s, and comes back on its data. While it is dead
 * every request is answered, 503 or 201, within the order service's send timeout (9 s) and a margin;
 * none hangs. The oracle is the log: every order that got a 201 is in it once; one in it without a
 * 201 had an unknown outcome (a 503 after its send timed out, or no answer); each reader counts
 * exactly the log.
 */
class KafkaBrokerKillScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(KafkaBrokerKillScenarioTests.class);

    private static final double ORDERS_PER_SECOND = 100;
    private static final long KILL_AFTER = 500;
    private static final long AFTER_RESTART = 500;
    private static final Duration DEAD_FOR = Duration.ofSeconds(10);
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

    @AfterAll
    static void stopBroker() {
        // the services first (JUnit ends the stack extension after this method), so that none waits on it
        stack.close();
        broker.close();
    }

    @Test
    void killedAndRestartedTheBrokerLosesNoAcknowledgedOrderAndNoRequestHangs() throws Exception {
        OrderStream orders = new OrderStream(stack);
        Set<String> acknowledged = orders.acknowledged;
        AtomicBoolean restarted = new AtomicBoolean();
        AtomicLong acknowledgedAtRestart = new AtomicLong(Long.MAX_VALUE);
        CompletableFuture<Long> stream = CompletableFuture.supplyAsync(() -> orders.run(ORDERS_PER_SECOND, 5L,
                () -> restarted.get() && acknowledged.size() >= acknowledgedAtRestart.get() + AFTER_RESTART));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> acknowledged.size() >= KILL_AFTER);
        broker.kill();
        long acknowledgedAtKill = acknowledged.size();
        Thread.sleep(DEAD_FOR.toMillis());
        long acknowledgedWhileDead = acknowledged.size() - acknowledgedAtKill;
        long refusedWhileDead = orders.refused.get();
        broker.restart();
        acknowledgedAtRestart.set(acknowledged.size());
        restarted.set(true);
        long sent = stream.get(300, TimeUnit.SECONDS);
        log.info("{}; slowest answer {} ms; {} acknowledged and {} refused while the broker was dead",
                orders.summary(sent), orders.slowestMillis.get(), acknowledgedWhileDead, refusedWhileDead);

        // while it was dead: clean refusals within the timeout, never a hang
        assertThat(orders.otherAnswers).as("answers other than 201 and 503").isEmpty();
        assertThat(refusedWhileDead).as("503s while the broker was dead").isPositive();
        assertThat(orders.unanswered.get() + orders.notConnected.get()).as("requests without an answer").isZero();
        assertThat(orders.slowestMillis.get()).as("slowest answer, ms").isLessThan(LONGEST_ANSWER_MILLIS);
        // and after it: intake goes on
        assertThat(acknowledged.size()).as("acknowledged after the restart")
                .isGreaterThanOrEqualTo((int) (acknowledgedAtRestart.get() + AFTER_RESTART));

        // the log, by the test itself
        List<String> logged = TheLog.readAll(broker.bootstrapServers()).stream().map(entry -> entry.event().orderId()).toList();
        Set<String> inLog = Set.copyOf(logged);
        long withoutAck = inLog.stream().filter(id -> !acknowledged.contains(id)).count();
        log.info("{} orders in the log, {} of them without a 201", logged.size(), withoutAck);
        assertThat(logged).as("orders in the log").doesNotHaveDuplicates();
        assertThat(inLog).as("every acknowledged order is in the log").containsAll(acknowledged);
        assertThat(withoutAck).as("orders in the log without a 201, against %d refused", orders.refused.get())
                .isLessThanOrEqualTo(orders.refused.get());

        // each reader counts the log, no more, no less
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> dashboardTotal() >= logged.size() && kitchenTotal() >= logged.size());
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
                .until(() -> dashboardTotal() == logged.size() && kitchenTotal() == logged.size());
        List<String> shown = new ArrayList<>();
        stack.getJson("kitchen-screen", "/api/kitchens").values()
                .forEach(column -> column.values().forEach(order -> shown.add(order.path("orderId").asString())));
        assertThat(shown).as("orders on the kitchen screen").doesNotHaveDuplicates();
        assertThat(shown.stream().collect(Collectors.toSet())).isEqualTo(inLog);
    }

    private static long dashboardTotal() {
        return stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong();
    }

    private static long kitchenTotal() {
        return stack.getJson("kitchen-screen", "/api/stats").path("received").path("kafka").asLong();
    }
}
