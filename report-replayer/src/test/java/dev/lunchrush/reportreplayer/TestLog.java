package dev.lunchrush.reportreplayer;

import dev.lunchrush.testing.TestBrokers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;

/** The tests' side of the log and of the HTTP API: the topic as the order service declares it, producing, committing. */
public final class TestLog {

    public static final String ADMIN_PASSWORD = "test-admin-secret";
    public static final String VIEWER_PASSWORD = "test-viewer-secret";

    private static boolean created;

    private TestLog() {
    }

    /** Topic {@code orders}: 3 partitions, 14 days' retention, as docs/ARCHITECTURE.md declares it. */
    public static synchronized void ensureTopic() throws Exception {
        if (created) {
            return;
        }
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(Topology.ORDERS_TOPIC, Topology.ORDERS_PARTITIONS, (short) 1)
                    .configs(Map.of(TopicConfig.RETENTION_MS_CONFIG,
                            String.valueOf(Duration.ofDays(Topology.ORDERS_RETENTION_DAYS).toMillis())))))
                    .all().get();
        }
        catch (ExecutionException ex) {
            if (!(ex.getCause() instanceof TopicExistsException)) {
                throw ex;
            }
        }
        created = true;
    }

    public static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()));
    }

    public static KafkaProducer<String, byte[]> producer() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(config);
    }

    /** As the order service writes: key kitchenId, record timestamp placedAt, value the codec's JSON. */
    public static ProducerRecord<String, byte[]> record(OrderEvent order) {
        return new ProducerRecord<>(Topology.ORDERS_TOPIC, null, order.placedAt().toEpochMilli(), order.kitchenId(),
                OrderEventCodec.encode(order));
    }

    public static void commit(String group, Map<TopicPartition, Long> offsets) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(group)) {
            consumer.assign(offsets.keySet());
            Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            offsets.forEach((partition, offset) -> commits.put(partition, new OffsetAndMetadata(offset)));
            consumer.commitSync(commits);
        }
    }

    public static KafkaConsumer<byte[], byte[]> consumer(String group) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        if (group != null) {
            config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new KafkaConsumer<>(config);
    }

    /** Every (offset, timestamp) of a partition, read plainly from the start: an oracle independent of the time index. */
    public static List<long[]> offsetsAndTimestamps(TopicPartition partition, long end) {
        List<long[]> all = new ArrayList<>();
        KafkaConsumer<byte[], byte[]> consumer = consumer(null);
        try {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            while (consumer.position(partition) < end) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    all.add(new long[] {record.offset(), record.timestamp()});
                }
            }
        }
        finally {
            // closed at once: it is in no group and commits nothing, and a fetch of its still held by the broker (for
            // records past the end, which it does not want) would hold the close for the fetch's maximum wait
            consumer.close(CloseOptions.timeout(Duration.ZERO));
        }
        return all;
    }

    public static HttpResponse<String> call(int port, String method, String path, String body, String user, String password)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    public static HttpResponse<String> get(int port, String path) throws Exception {
        return call(port, "GET", path, null, null, null);
    }

    public static HttpResponse<String> asAdmin(int port, String method, String path, String body) throws Exception {
        return call(port, method, path, body, "admin", ADMIN_PASSWORD);
    }

    public static Instant millis(Instant instant) {
        return Instant.ofEpochMilli(instant.toEpochMilli());
    }
}
