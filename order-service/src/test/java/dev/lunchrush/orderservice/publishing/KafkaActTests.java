package dev.lunchrush.orderservice.publishing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.TestBrokers;
import dev.lunchrush.orderservice.OrderServiceTests;
import dev.lunchrush.orderservice.OrdersTopic;

import static org.assertj.core.api.Assertions.assertThat;

/** Act 4 on a real Kafka broker: the order is in the log, keyed by kitchen, stamped with placedAt. */
class KafkaActTests extends OrderServiceTests {

    @AfterEach
    void backToActOne() {
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void orderPlacedInTheLogActIsOnTheTopicWithKeyAndTimestamp() {
        act("{\"act\":\"log\"}");
        purgeOrderQueues();

        var response = placeOrder();

        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        JsonNode accepted = json(response.body());
        String orderId = accepted.get("orderId").stringValue();
        Instant placedAt = Instant.parse(accepted.get("placedAt").stringValue());
        ConsumerRecord<String, byte[]> record = find(orderId);
        assertThat(record.key()).isEqualTo("k3");
        assertThat(record.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(record.timestamp()).isEqualTo(placedAt.toEpochMilli());
        OrderEvent event = OrderEventCodec.decode(record.value());
        assertThat(event.placedAt()).isEqualTo(placedAt);
        assertThat(event.origin()).isEqualTo(OrderEvent.ORIGIN_LIVE);
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isZero();
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isZero();
    }

    @Test
    void topicsHaveThreePartitionsAndFourteenDaysOfRetention() throws Exception {
        act("{\"act\":\"log\"}");
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        try (AdminClient admin = AdminClient.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestBrokers.kafkaBootstrapServers()))) {
            Map<String, TopicDescription> topics = admin.describeTopics(
                    List.of(Topology.ORDERS_TOPIC, Topology.ORDERS_DEAD_LETTER_TOPIC)).allTopicNames().get();
            assertThat(topics.get(Topology.ORDERS_TOPIC).partitions()).hasSize(3);
            assertThat(topics.get(Topology.ORDERS_DEAD_LETTER_TOPIC).partitions()).hasSize(3);
            ConfigResource orders = new ConfigResource(ConfigResource.Type.TOPIC, Topology.ORDERS_TOPIC);
            Config config = admin.describeConfigs(List.of(orders)).all().get().get(orders);
            assertThat(config.get("retention.ms").value()).isEqualTo(String.valueOf(Duration.ofDays(14).toMillis()));
        }
    }

    static ConsumerRecord<String, byte[]> find(String orderId) {
        List<ConsumerRecord<String, byte[]>> records = OrdersTopic.readAll(event -> event.orderId().equals(orderId));
        assertThat(records).hasSize(1);
        return records.get(0);
    }
}
