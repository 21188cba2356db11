package dev.lunchrush.orderservice.publishing;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.StalledBrokersTests;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service's connection to the real RabbitMQ lost after the broker took an order and before its confirm reached
 * the service (the proxy in front of RabbitMQ holds the broker's answers, then cuts the connection): the order may
 * be in the queue, so the client is told "Outcome unknown", never that it was not written; the service publishes it
 * again under the same id until RabbitMQ confirms it, and a retry under the same Idempotency-Key gets that order's
 * 201, not a second order.
 */
class RabbitConnectionLostTests extends StalledBrokersTests {

    @Autowired
    MeterRegistry registry;

    @AfterEach
    void brokerGoesOn() {
        RABBIT.release();
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
    }

    @Test
    void anOrderWhoseConnectionIsLostBeforeItsConfirmIsOfUnknownOutcomeAndItsRetryGetsThatOrderOnly() throws Exception {
        act("{\"act\":\"shared-queue\"}");
        // the publisher's channel in use, so that the order goes out at once
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        purgeOrderQueues();
        double republishedBefore = republished();
        String key = UUID.randomUUID().toString();

        try (Connection observer = TestBrokers.rabbit().connectionFactory().newConnection("connection-lost-observer")) {
            Channel queue = observer.createChannel();
            RABBIT.holdReplies();
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(
                    () -> postJson("/orders", validOrder(), Map.of("Idempotency-Key", key)));
            // RabbitMQ has the order; its confirm waits in the proxy
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> queue.queueDeclarePassive(Topology.SHARED_QUEUE).getMessageCount() == 1);
            RABBIT.cut();

            HttpResponse<String> answer = first.get(30, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
            assertThat(json(answer.body()).get("title").stringValue()).as(answer.body()).isEqualTo("Outcome unknown");
            assertThat(json(answer.body()).get("detail").stringValue()).contains("same Idempotency-Key");

            HttpResponse<String> retried = sentAgainUntil(201,
                    () -> postJson("/orders", validOrder(), Map.of("Idempotency-Key", key)));
            assertThat(retried.headers().firstValue("Idempotent-Replayed")).as("the first request's answer")
                    .hasValue("true");
            String orderId = json(retried.body()).get("orderId").stringValue();
            assertThat(republished() - republishedBefore).as("orders published again").isEqualTo(1);
            // the copy RabbitMQ took before the connection was lost, and the one published again: one order
            assertThat(messageIds(queue, Topology.SHARED_QUEUE)).as("the orders in the queue").isNotEmpty()
                    .containsOnly(orderId);
        }
    }

    private double republished() {
        Counter counter = registry.find("orders.rabbit.republished").counter();
        return counter == null ? 0 : counter.count();
    }

    /** Takes every message off the queue: their message ids (an order's id). */
    private static List<String> messageIds(Channel channel, String queue) throws Exception {
        List<String> ids = new ArrayList<>();
        GetResponse message;
        while ((message = channel.basicGet(queue, true)) != null) {
            ids.add(message.getProps().getMessageId());
        }
        return ids;
    }
}
