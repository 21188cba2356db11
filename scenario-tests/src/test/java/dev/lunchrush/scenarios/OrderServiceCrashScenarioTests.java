package dev.lunchrush.scenarios;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    void everyAcknowledgedOrderIsInTheLogOnceAndEachReaderCountsTheLog() throws Exception {
        OrderStream orders = new OrderStream(stack);
        Set<String> acknowledged = orders.acknowledged;
        AtomicBoolean restarted = new AtomicBoolean();
        AtomicLong acknowledgedAtRestart = new AtomicLong(Long.MAX_VALUE);
        CompletableFuture<Long> stream = CompletableFuture.supplyAsync(() -> orders.run(ORDERS_PER_SECOND, 7L,
                () -> restarted.get() && acknowledged.size() >= acknowledgedAtRestart.get() + AFTER_RESTART));

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> acknowledged.size() >= KILL_AFTER);
        stack.service("order-service").kill();
        log.info("order service killed after {} acknowledged orders", acknowledged.size());
        stack.service("order-service").restart(Stack.START_TIMEOUT);
        acknowledgedAtRestart.set(acknowledged.size());
        restarted.set(true);
        long sent = stream.get(300, TimeUnit.SECONDS);
        log.info(orders.summary(sent));
        assertThat(orders.otherAnswers).as("answers other than 201 and 503").isEmpty();
        assertThat(orders.notConnected.get() + orders.unanswered.get()).as("requests that met the dead service").isPositive();
        assertThat(acknowledged.size()).as("acknowledged after the restart")
                .isGreaterThanOrEqualTo((int) (acknowledgedAtRestart.get() + AFTER_RESTART));

        LogOracle.holds(stack, TestBrokers.kafkaBootstrapServers(), acknowledged,
                orders.unanswered.get());
    }
}
