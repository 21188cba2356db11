package dev.lunchrush.orderservice.notifications;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The SMS task next to the log: every order placed in act 4 gives one task on the real
 * {@code notifications.sms} work queue; the two competing workers do each exactly once.
 */
class SmsWorkersTests extends OrderServiceTests {

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry registry;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    JsonMapper json;

    @AfterEach
    void backToActOne() {
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void everyOrderInTheLogGivesOneSmsDoneOnceByOneOfTwoWorkers() {
        act("{\"act\":\"log\"}");
        double sentBefore = sent();
        long rowsBefore = rows();

        int orders = 30;
        for (int i = 0; i < orders; i++) {
            assertThat(placeOrder().statusCode()).isEqualTo(201);
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(sent() - sentBefore).isEqualTo(orders));
        assertThat(rows() - rowsBefore).isEqualTo(orders);
        assertThat(queueDepth(Topology.NOTIFICATION_QUEUE)).isZero();
        List<Map<String, Object>> perWorker = jdbc.queryForList("SELECT worker, COUNT(*) AS n FROM notification_log GROUP BY worker");
        assertThat(perWorker).hasSize(2);
    }

    @Test
    void aTaskDeliveredAgainIsCountedNotSentAgain() {
        String taskId = UUID.randomUUID().toString();
        SmsTask task = new SmsTask(taskId, taskId, "c-1", "k3", "Your order is on its way");
        double sentBefore = sent();
        double duplicatesBefore = registry.get("notifications.duplicates").counter().count();

        for (int i = 0; i < 3; i++) {
            rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody(json.writeValueAsBytes(task))
                    .setContentType(MessageProperties.CONTENT_TYPE_JSON).build());
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(registry.get("notifications.duplicates").counter().count() - duplicatesBefore).isEqualTo(2));
        assertThat(sent() - sentBefore).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM notification_log WHERE task_id = ?", Long.class, taskId)).isEqualTo(1);
    }

    @Test
    void aPoisonTaskIsDeadLetteredAndTheWorkersGoOn() {
        long deadBefore = queueDepth(Topology.DEAD_LETTER_QUEUE);
        double sentBefore = sent();
        String taskId = UUID.randomUUID().toString();

        rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody("not a task {".getBytes()).build());
        rabbit.send("", Topology.NOTIFICATION_QUEUE, MessageBuilder.withBody(json.writeValueAsBytes(
                new SmsTask(taskId, taskId, "c-2", "k1", "ok"))).build());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(queueDepth(Topology.DEAD_LETTER_QUEUE) - deadBefore).isEqualTo(1);
            assertThat(sent() - sentBefore).isEqualTo(1);
        });
    }

    private double sent() {
        return registry.get("notifications.sent").counters().stream().mapToDouble(counter -> counter.count()).sum();
    }

    private long rows() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM notification_log", Long.class);
    }
}
