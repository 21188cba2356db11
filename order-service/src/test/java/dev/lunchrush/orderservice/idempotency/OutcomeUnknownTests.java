package dev.lunchrush.orderservice.idempotency;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrdersTopic;
import dev.lunchrush.orderservice.StalledBrokersTests;
import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.support.topology.OrderQueues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An order whose broker answers after the order's deadline, on real brokers: RabbitMQ's confirm held back for this
 * service alone (its connection goes through a proxy that holds what it sends), Kafka's ack held back by a broker
 * that stands still ({@code SIGSTOP}) a little longer than the send timeout. The client gets 503 saying the outcome
 * is unknown; the key waits for the broker's real answer; a retry with the key gets the order's stored 201, never a
 * second order. Kafka's producer giving up on a record the frozen broker then writes is learnt from the log.
 */
class OutcomeUnknownTests extends StalledBrokersTests {

    @Autowired
    MeterRegistry registry;

    @AfterEach
    void brokersGoOn() {
        RABBIT.release();
        KAFKA.thaw();
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
    }

    @Test
    void anOrderRabbitMqConfirmsAfterItsDeadlineIsAnsweredToTheRetryAndPlacedOnce() {
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first;
        HttpResponse<String> meanwhile;
        RABBIT.hold();
        try {
            // the output timeout is 1 s: the order is on its way to RabbitMQ, its confirm cannot come
            first = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));
            meanwhile = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));
        }
        finally {
            RABBIT.release();
        }

        assertUnknown(first);
        assertUnknown(meanwhile);
        HttpResponse<String> retried = sentAgainUntil(201, () -> postJson("/orders", validOrder(), Map.of("Idempotency-Key", key)));
        assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(retried.headers().firstValue("Location")).hasValueSatisfying(location -> assertThat(location)
                .isEqualTo("/orders/" + json(retried.body()).get("orderId").stringValue()));
        assertThat(queueDepth(Topology.SHARED_QUEUE)).as("orders in the queue").isEqualTo(1);
    }

    @Test
    void anOrderRabbitMqTurnsOutNotToHaveTakenIsPlacedByTheRetry() {
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
        String key = UUID.randomUUID().toString();

        RABBIT.hold();
        try {
            assertUnknown(postJson("/orders", validOrder(), Map.of("Idempotency-Key", key)));
            // the queue gone before the order reaches RabbitMQ: it comes back unroutable, not written
            atTheBroker(channel -> channel.queueDelete(Topology.SHARED_QUEUE));
        }
        finally {
            RABBIT.release();
        }

        try {
            // once the late answer ("not written") is in, the key is free: a retry is tried for real, and refused
            // as the first was while the queue is away
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
                HttpResponse<String> answer = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
                return json(answer.body()).get("type").stringValue().equals(ProblemType.NOT_ACCEPTED.uri().toString());
            });
        }
        finally {
            rabbitAdmin.declareQueue(OrderQueues.orderQueue(Topology.SHARED_QUEUE));
        }
        HttpResponse<String> retried = postJson("/orders", validOrder(), Map.of("Idempotency-Key", key));
        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(201);
        assertThat(retried.headers().firstValue("Idempotent-Replayed")).isEmpty();
        assertThat(queueDepth(Topology.SHARED_QUEUE)).as("orders in the queue").isEqualTo(1);
    }

    @Test
    void anOrderKafkaAcknowledgesAfterItsDeadlineIsAnsweredToTheRetryAndPlacedOnce() {
        act("{\"act\":\"log\"}");
        // the producer and its metadata ready before the broker stands still
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        String customer = "c-late-ack-" + UUID.randomUUID();
        String order = validOrder().replace("c-1042", customer);
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first;
        KAFKA.freeze();
        try {
            // the send timeout is 2 s, the producer's delivery timeout 8 s: the ack comes once the broker goes on
            first = postJson("/orders", order, Map.of("Idempotency-Key", key));
        }
        finally {
            KAFKA.thaw();
        }

        assertUnknown(first);
        HttpResponse<String> retried = sentAgainUntil(201, () -> postJson("/orders", order, Map.of("Idempotency-Key", key)));
        assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(OrdersTopic.readAll(KAFKA.bootstrapServers(), event -> event.customerId().equals(customer)))
                .as("the order in the log").hasSize(1);
    }

    @Test
    void anOrderKafkaGaveUpOnWhileTheBrokerStoodStillIsLearntFromTheLogAndPlacedOnce() {
        act("{\"act\":\"log\"}");
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        String customer = "c-given-up-" + UUID.randomUUID();
        String order = validOrder().replace("c-1042", customer);
        String key = UUID.randomUUID().toString();
        double givenUpBefore = givenUp();

        HttpResponse<String> first;
        KAFKA.freeze();
        try {
            first = postJson("/orders", order, Map.of("Idempotency-Key", key));
            // the producer's delivery timeout passes while the broker, which has the record, stands still
            await().atMost(Duration.ofSeconds(30)).until(() -> givenUp() > givenUpBefore);
        }
        finally {
            KAFKA.thaw();
        }

        assertUnknown(first);
        // the next order of the same kitchen (so of the same partition) makes the given-up one's outcome final
        sentAgainUntil(201, this::placeOrder);
        HttpResponse<String> retried = sentAgainUntil(201, () -> postJson("/orders", order, Map.of("Idempotency-Key", key)));
        assertThat(OrdersTopic.readAll(KAFKA.bootstrapServers(), event -> event.customerId().equals(customer)))
                .as("the order in the log").hasSize(1);
        assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
    }

    private double givenUp() {
        return registry.get("orders.kafka.given.up").counter().count();
    }

    private static void assertUnknown(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(json(response.body()).get("title").stringValue()).isEqualTo("Outcome unknown");
        assertThat(json(response.body()).get("type").stringValue()).isEqualTo(ProblemType.OUTCOME_UNKNOWN.uri().toString());
        assertThat(json(response.body()).get("detail").stringValue()).contains("same Idempotency-Key");
    }
}
