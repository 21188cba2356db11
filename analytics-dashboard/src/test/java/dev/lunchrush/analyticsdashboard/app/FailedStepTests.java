package dev.lunchrush.analyticsdashboard.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

import dev.lunchrush.analyticsdashboard.AnalyticsDashboardApplication;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.Source;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.ServiceTestSetup;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A poll of the log is applied in steps of 200 ms of the capacity, each in its own database transaction with its
 * offsets. When step k fails (a database error), the error handler hands the whole poll to the listener again:
 * the steps before k, already committed, must not be counted again. The log is a topic of this test's own, one
 * partition, on the test Kafka (in-process KRaft), filled before the listener starts, so that the first poll
 * holds all of it; the database error is a trigger that fails the third step's write once.
 */
class FailedStepTests {

    private static final int ORDERS = 100;
    private static final int CAPACITY = 50; // steps of 10 records

    @Test
    void aStepThatFailsDoesNotCountTheStepsBeforeItTwice() throws Exception {
        String topic = "orders-failed-step-" + UUID.randomUUID();
        String kitchen = "kf-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<String, byte[]> producer = producer()) {
            for (int i = 1; i <= ORDERS; i++) {
                OrderEvent event = new OrderEvent("fs-" + i + "-" + UUID.randomUUID(), Instant.now(), kitchen, "c-1042",
                        List.of(new OrderItem("pad-thai", 1)), "12 Mill Lane", null, OrderEvent.ORIGIN_LIVE, "", i);
                producer.send(new ProducerRecord<>(topic, "k", OrderEventCodec.encode(event)));
            }
            producer.flush();
        }

        try (ConfigurableApplicationContext dashboard = startDashboard(topic)) {
            FailingStep.writes.set(0);
            FailingStep.failures.set(0);
            FailingStep.failAt = 3;
            new JdbcTemplate(dashboard.getBean(DataSource.class)).execute(
                    "CREATE TRIGGER fail_step BEFORE INSERT, UPDATE ON received FOR EACH ROW CALL \"" + FailingStep.class.getName() + "\"");
            dashboard.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("analytics-dashboard-kafka").start();

            Aggregates aggregates = dashboard.getBean(Aggregates.class);
            TopicPartition partition = new TopicPartition(topic, 0);
            // the whole log applied: its last offset stored, after the failure and the poll handed over again
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    aggregates.storedOffsets(topic).getOrDefault(partition, 0L) == ORDERS && FailingStep.failures.get() == 1);
            // and nothing moving any more
            long settled = countOf(aggregates, kitchen);
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> countOf(aggregates, kitchen) == settled);
            assertThat(countOf(aggregates, kitchen)).isEqualTo(ORDERS);
            assertThat(aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC).portionsPerDish()).containsEntry("pad-thai", (long) ORDERS);
            assertThat(dashboard.getBean(OrderProcessor.class).received()).containsEntry(Source.KAFKA, (long) ORDERS);
            assertThat(aggregates.storedOffsets(topic)).containsExactly(Map.entry(partition, (long) ORDERS));
            assertThat(FailingStep.failures).as("the injected database failure happened once").hasValue(1);
        }
        finally {
            FailingStep.failAt = -1;
        }
    }

    /**
     * A database that fails every write is not poison: nothing is dead-lettered, the poll is tried again, readiness
     * says the reader is held by its store; once the database takes writes again, every order is counted once.
     */
    @Test
    void aDatabaseThatFailsHoldsTheReaderAndLosesNothing() throws Exception {
        String topic = "orders-store-down-" + UUID.randomUUID();
        String kitchen = "kd-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<String, byte[]> producer = producer()) {
            for (int i = 1; i <= ORDERS; i++) {
                OrderEvent event = new OrderEvent("sd-" + i + "-" + UUID.randomUUID(), Instant.now(), kitchen, "c-1042",
                        List.of(new OrderItem("pad-thai", 1)), "12 Mill Lane", null, OrderEvent.ORIGIN_LIVE, "", i);
                producer.send(new ProducerRecord<>(topic, "k", OrderEventCodec.encode(event)));
            }
            producer.flush();
        }

        try (ConfigurableApplicationContext dashboard = startDashboard(topic)) {
            FailingStep.failures.set(0);
            FailingStep.failEvery = true;
            new JdbcTemplate(dashboard.getBean(DataSource.class)).execute(
                    "CREATE TRIGGER fail_every BEFORE INSERT, UPDATE ON received FOR EACH ROW CALL \"" + FailingStep.class.getName() + "\"");
            dashboard.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("analytics-dashboard-kafka").start();
            OrderProcessor processor = dashboard.getBean(OrderProcessor.class);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(FailingStep.failures.get()).isGreaterThanOrEqualTo(3);
                JsonNode readiness = readiness(dashboard);
                assertThat(readiness.path("status").asString()).isEqualTo("DOWN");
                assertThat(readiness.path("components").path("reading").path("details").path("store").asString())
                        .contains("every write fails");
            });
            assertThat(processor.deadLettered()).isZero();
            assertThat(processor.received().getOrDefault(Source.KAFKA, 0L)).isZero();

            FailingStep.failEvery = false;
            Aggregates aggregates = dashboard.getBean(Aggregates.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> countOf(aggregates, kitchen) == ORDERS);
            assertThat(processor.received()).containsEntry(Source.KAFKA, (long) ORDERS);
            assertThat(processor.deadLettered()).isZero();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(readiness(dashboard).path("components").path("reading").path("status").asString()).isEqualTo("UP"));
        }
        finally {
            FailingStep.failEvery = false;
        }
    }

    private static JsonNode readiness(ConfigurableApplicationContext context) throws Exception {
        String port = context.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness")).build(), HttpResponse.BodyHandlers.ofString());
        return JsonMapper.builder().build().readTree(response.body());
    }

    private static long countOf(Aggregates aggregates, String kitchen) {
        return aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC).ordersPerKitchen().getOrDefault(kitchen, 0L);
    }

    private static KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
    }

    private static ConfigurableApplicationContext startDashboard(String topic) {
        RabbitBroker rabbit = TestBrokers.rabbit();
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", TestBrokers.kafkaBootstrapServers());
        properties.put("spring.kafka.consumer.group-id", "failed-step-" + UUID.randomUUID());
        properties.put("spring.rabbitmq.host", rabbit.host());
        properties.put("spring.rabbitmq.port", rabbit.port());
        properties.put("spring.rabbitmq.username", rabbit.username());
        properties.put("spring.rabbitmq.password", rabbit.password());
        properties.put("spring.rabbitmq.virtual-host", rabbit.virtualHost());
        properties.put("server.port", 0);
        properties.put("lunchrush.data-dir", ServiceTestSetup.newDataDir("analytics-dashboard-failed-step").toString());
        properties.put("lunchrush.kafka.topic", topic);
        // started by the test once the database failure is in place
        properties.put("lunchrush.kafka.listen", false);
        properties.put("lunchrush.rabbitmq.listen", false);
        properties.put("lunchrush.feed.enabled", false);
        properties.put("lunchrush.analytics.capacity-per-second", CAPACITY);
        // as command-line arguments: they win over application.yml, as the environment would
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(AnalyticsDashboardApplication.class).run(args);
    }
}
