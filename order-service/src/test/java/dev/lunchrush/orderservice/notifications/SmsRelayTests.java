package dev.lunchrush.orderservice.notifications;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
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
 * once the queue takes messages again every order's SMS is done, once. A reset of the relay's group
 * back past what the workers remember of done tasks (a day in these tests) texts nobody again.
 */
class SmsRelayTests extends OrderServiceTests {

    private static final String POLICY = "lunchrush-test-sms-refused";

    @Autowired
    MeterRegistry registry;

    @Autowired
    SmsWorkers workers;

    @Autowired
    KafkaListenerEndpointRegistry listeners;

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

    @Test
    void aResetOfTheRelaysGroupPastWhatTheWorkersRememberTextsNobodyAgain() throws Exception {
        act("{\"act\":\"log\"}");
        MessageListenerContainer relay = listeners.getListenerContainer(SmsRelay.GROUP);
        assertThat(relay).isNotNull();
        double tooOldBefore = tooOld();
        List<String> orderIds = new ArrayList<>();
        try (Admin admin = Admin.create(Map.<String, Object>of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestBrokers.kafkaBootstrapServers()))) {
            relay.stop();
            Map<TopicPartition, OffsetAndMetadata> before = endOffsets(admin);
            // orders placed two days ago, which the relay passed then: their SMS were sent, and are forgotten after a day
            orderIds.addAll(appendOrdersPlacedAt(Instant.now().minus(Duration.ofDays(2)), 6));
            Map<TopicPartition, OffsetAndMetadata> after = endOffsets(admin);
            commit(admin, after);

            // the group reset two days back: to the first of those orders
            commit(admin, before);
            relay.start();

            await().atMost(Duration.ofSeconds(30)).until(() -> committed(admin).equals(after));
        }
        finally {
            relay.start();
        }
        // each task either sent (the store no longer says it was done) or refused as too old to tell
        await().atMost(Duration.ofSeconds(30)).until(() -> tooOld() - tooOldBefore == orderIds.size()
                || orderIds.stream().allMatch(orderId -> workers.doneBy(orderId) != null));
        assertThat(orderIds).as("texted again").allSatisfy(orderId -> assertThat(workers.doneBy(orderId)).isNull());
        assertThat(tooOld() - tooOldBefore).as("tasks refused as older than the done tasks' retention")
                .isEqualTo(orderIds.size());
        assertThat(queueDepth(Topology.NOTIFICATION_QUEUE)).isZero();
    }

    /** Live orders appended to the log as if placed at {@code placedAt}: their ids. */
    private static List<String> appendOrdersPlacedAt(Instant placedAt, int count) throws Exception {
        List<String> orderIds = new ArrayList<>();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            for (int i = 1; i <= count; i++) {
                String kitchen = "k" + (1 + i % 5);
                OrderEvent order = new OrderEvent(UUID.randomUUID().toString(), placedAt.plusMillis(i), kitchen,
                        "c-two-days-ago-" + i, List.of(new OrderItem("pad-thai", 1)), "12 Mill Lane", null,
                        OrderEvent.ORIGIN_LIVE, "two-days-ago", i);
                producer.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, null, order.placedAt().toEpochMilli(), kitchen,
                        OrderEventCodec.encode(order))).get(10, TimeUnit.SECONDS);
                orderIds.add(order.orderId());
            }
        }
        return orderIds;
    }

    private static Map<TopicPartition, OffsetAndMetadata> endOffsets(Admin admin) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int partition = 0; partition < Topology.ORDERS_PARTITIONS; partition++) {
            latest.put(new TopicPartition(Topology.ORDERS_TOPIC, partition), OffsetSpec.latest());
        }
        Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
        admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS)
                .forEach((partition, end) -> ends.put(partition, new OffsetAndMetadata(end.offset())));
        return ends;
    }

    /** The group's offsets set from outside, as a reset does, once the stopped relay has left the group. */
    private static void commit(Admin admin, Map<TopicPartition, OffsetAndMetadata> offsets) {
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() ->
                admin.alterConsumerGroupOffsets(SmsRelay.GROUP, offsets).all().get(10, TimeUnit.SECONDS));
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(Admin admin) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>(admin.listConsumerGroupOffsets(SmsRelay.GROUP)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS));
        offsets.replaceAll((partition, offset) -> new OffsetAndMetadata(offset.offset()));
        return offsets;
    }

    private double tooOld() {
        Counter counter = registry.find("notifications.too.old").counter();
        return counter == null ? 0 : counter.count();
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
