package dev.lunchrush.orderservice.publishing;

import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A memory alarm of the real RabbitMQ for this service's connection ({@link ConnectionAlarm}): in every act that
 * publishes to RabbitMQ the service is not ready, and an order is refused at once with a 503 that says RabbitMQ
 * blocks publishing and that nothing was sent (not "Outcome unknown" after the output timeout); nothing reaches a
 * queue or the feed, also once the alarm has cleared; then the service is ready and takes orders again.
 */
class BlockedPublishingTests extends OrderServiceTests {

    /** Well under this context's output timeout (3 s), which is what an order handed to a blocked connection waits. */
    private static final Duration PROMPT = Duration.ofMillis(1500);

    @Autowired
    ConnectionFactory connectionFactory;

    @AfterEach
    void backToActOne() {
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void whileRabbitMqBlocksPublishingTheServiceIsNotReadyAndRefusesOrdersAtOnceInEveryQueueAct() {
        act("{\"act\":\"shared-queue\"}");
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        purgeOrderQueues();
        await().atMost(Duration.ofSeconds(15)).until(() -> get("/actuator/health/readiness").statusCode() == 200);
        int clientPort = connectionFactory.createConnection().getLocalPort();

        try (ConnectionAlarm alarm = ConnectionAlarm.raise(clientPort)) {
            // no order comes first: the readiness check itself learns of the alarm
            await().atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
                HttpResponse<String> readiness = get("/actuator/health/readiness");
                assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(503);
                assertThat(readiness.body()).contains("blocks publishing");
            });
            for (String act : new String[] {"{\"act\":\"shared-queue\"}", "{\"act\":\"queue-per-reader\"}",
                    "{\"act\":\"memory-feed\",\"strategy\":\"unbounded\"}"}) {
                act(act);
                assertThat(get("/actuator/health/readiness").statusCode()).as(act).isEqualTo(503);

                long start = System.nanoTime();
                HttpResponse<String> refused = placeOrder();
                Duration took = Duration.ofNanos(System.nanoTime() - start);

                assertThat(refused.statusCode()).as(act + ": " + refused.body()).isEqualTo(503);
                assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                        type -> assertThat(type).startsWith("application/problem+json"));
                assertThat(json(refused.body()).get("title").stringValue()).as(act).isNotEqualTo("Outcome unknown");
                assertThat(json(refused.body()).get("detail").stringValue()).as(act)
                        .contains("blocks publishing", "not sent");
                assertThat(took).as(act + ": the 503's time").isLessThan(PROMPT);
            }
        }

        await().atMost(Duration.ofSeconds(15)).until(() -> get("/actuator/health/readiness").statusCode() == 200);
        // the refused orders were never in the socket either: nothing arrives once the broker reads it again
        assertThat(json(pullFeed("max=100&waitMillis=0").body()).size()).as("events in the feed").isZero();
        for (String queue : new String[] {Topology.SHARED_QUEUE, Topology.KITCHEN_QUEUE, Topology.ANALYTICS_QUEUE}) {
            assertThat(queueDepth(queue)).as(queue).isZero();
        }
        HttpResponse<String> placed = placeOrder();
        assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(1);
    }
}
