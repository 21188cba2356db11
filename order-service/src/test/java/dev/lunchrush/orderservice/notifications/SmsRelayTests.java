package dev.lunchrush.orderservice.notifications;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The log is the SMS tasks' outbox: while RabbitMQ refuses the work queue's messages (a policy of
 * max-length 0 with reject-publish on the real {@code notifications.sms}, so that every publish is
 * nacked), the orders are placed all the same, the relay counts the refusals and tries again, and
 * once the queue takes messages again every order's SMS is done, once.
 */
class SmsRelayTests extends OrderServiceTests {

    private static final String POLICY = "lunchrush-test-sms-refused";

    @Autowired
    MeterRegistry registry;

    @Autowired
    SmsWorkers workers;

    @AfterEach
    void queueTakesMessagesAndBackToActOne() {
        allowPublishing();
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void aTaskThatRabbitMqRefusedIsTriedAgainAndDoneOnceNotLost() {
        act("{\"act\":\"log\"}");
        double failedBefore = counter("notifications.enqueue.failed");
        double sentBefore = sent();
        refusePublishing();

        List<String> orderIds = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            var response = placeOrder();
            assertThat(response.statusCode()).as("placed while RabbitMQ refuses the SMS queue").isEqualTo(201);
            orderIds.add(json(response.body()).get("orderId").stringValue());
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(counter("notifications.enqueue.failed") - failedBefore).as("refused enqueues").isPositive());
        assertThat(orderIds).as("done while refused").allSatisfy(orderId -> assertThat(workers.doneBy(orderId)).isNull());

        allowPublishing();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(orderIds).allSatisfy(orderId ->
                assertThat(workers.doneBy(orderId)).as("SMS of %s", orderId).isNotNull()));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(sent() - sentBefore).as("SMS sent").isEqualTo(orderIds.size()));
        assertThat(queueDepth(Topology.NOTIFICATION_QUEUE)).isZero();
    }

    private static void refusePublishing() {
        RabbitBroker rabbit = TestBrokers.rabbit();
        rabbit.management("PUT", policyPath(rabbit), """
                {"pattern":"^%s$","apply-to":"queues","priority":100,
                 "definition":{"max-length":0,"overflow":"reject-publish"}}""".formatted(
                Topology.NOTIFICATION_QUEUE.replace(".", "\\\\.")));
    }

    private static void allowPublishing() {
        RabbitBroker rabbit = TestBrokers.rabbit();
        try {
            rabbit.management("DELETE", policyPath(rabbit), null);
        }
        catch (IllegalStateException alreadyGone) {
            // 404: no policy, nothing to take back
        }
    }

    private static String policyPath(RabbitBroker rabbit) {
        return "/api/policies/" + URLEncoder.encode(rabbit.virtualHost(), StandardCharsets.UTF_8) + "/" + POLICY;
    }

    private double sent() {
        return registry.get("notifications.sent").counters().stream().mapToDouble(counter -> counter.count()).sum();
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }
}
