package dev.lunchrush.analyticsdashboard.app;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.test.utils.ContainerTestUtils;

import dev.lunchrush.analyticsdashboard.AnalyticsDashboardApplication;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The order service's admin import writes a batch to the log as one Kafka transaction, all of it or none:
 * the job reads with isolation level {@code read_committed}, so the records of an aborted transaction are
 * never counted. The log is a topic of this test's own on the test Kafka ({@link TestBrokers}), with the
 * partitions of {@code orders}: it holds this test's records alone, so the dashboard's count is exactly theirs
 * (the shared {@code orders} topic has every other test's orders).
 */
class ReadCommittedTests {

    @Test
    void recordsOfAnAbortedTransactionAreNotCounted() throws Exception {
        String topic = "orders-read-committed-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, Topology.ORDERS_PARTITIONS, (short) 1))).all().get();
        }
        try (ConfigurableApplicationContext dashboard = startDashboard(topic)) {
            dashboard.getBean(KafkaListenerEndpointRegistry.class).getListenerContainers().forEach(container ->
                    ContainerTestUtils.waitForAssignment(container, Topology.ORDERS_PARTITIONS));
            String aborted = "ka-" + UUID.randomUUID();
            String committed = "kc-" + UUID.randomUUID();
            // one record key for both, so one partition: the aborted records come before the committed ones
            String key = "k-" + UUID.randomUUID();
            try (KafkaProducer<String, byte[]> producer = transactionalProducer()) {
                producer.initTransactions();
                producer.beginTransaction();
                send(producer, topic, key, aborted, 5);
                producer.flush();
                producer.abortTransaction();
                producer.beginTransaction();
                send(producer, topic, key, committed, 3);
                producer.commitTransaction();
            }

            Aggregates aggregates = dashboard.getBean(Aggregates.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> countOf(aggregates, committed) == 3);
            assertThat(countOf(aggregates, aborted)).isZero();
            assertThat(dashboard.getBean(OrderProcessor.class).received()).containsEntry(Source.KAFKA, 3L);
        }
    }

    private static void send(KafkaProducer<String, byte[]> producer, String topic, String key, String kitchen, int count) {
        for (int i = 1; i <= count; i++) {
            OrderEvent event = new OrderEvent("tx-" + i + "-" + UUID.randomUUID(), Instant.now(), kitchen, "c-1042",
                    List.of(new OrderItem("pad-thai", 2)), "12 Mill Lane", null, OrderEvent.ORIGIN_IMPORT, "", 0);
            producer.send(new ProducerRecord<>(topic, key, OrderEventCodec.encode(event)));
        }
    }

    private static KafkaProducer<String, byte[]> transactionalProducer() {
        Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "import-" + UUID.randomUUID(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(config);
    }

    private static long countOf(Aggregates aggregates, String kitchen) {
        return aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC).ordersPerKitchen().getOrDefault(kitchen, 0L);
    }

    private static ConfigurableApplicationContext startDashboard(String topic) throws Exception {
        RabbitBroker rabbit = TestBrokers.rabbit();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", TestBrokers.kafkaBootstrapServers());
        properties.put("spring.kafka.consumer.group-id", "read-committed-" + UUID.randomUUID());
        properties.put("lunchrush.kafka.topic", topic);
        properties.put("spring.rabbitmq.host", rabbit.host());
        properties.put("spring.rabbitmq.port", rabbit.port());
        properties.put("spring.rabbitmq.username", rabbit.username());
        properties.put("spring.rabbitmq.password", rabbit.password());
        properties.put("spring.rabbitmq.virtual-host", rabbit.virtualHost());
        properties.put("server.port", 0);
        properties.put("lunchrush.data-dir", Files.createTempDirectory("analytics-dashboard-read-committed").toString());
        properties.put("lunchrush.rabbitmq.listen", false);
        properties.put("lunchrush.feed.enabled", false);
        properties.put("lunchrush.analytics.capacity-per-second", 5000);
        // as command-line arguments: they win over application.yml, as the environment would
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(AnalyticsDashboardApplication.class).run(args);
    }
}
