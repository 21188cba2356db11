package dev.lunchrush.orderservice;

import dev.lunchrush.testing.TestBrokers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;

/** Reads the test broker's {@code orders} topic from outside, as a reader would. */
public final class OrdersTopic {

    private OrdersTopic() {
    }

    /**
     * Makes the topic refuse records larger than {@code bytes} until closed: a broker that takes some
     * records of a batch and not others.
     */
    public static MaxMessageBytes limitMessageBytes(int bytes) throws Exception {
        MaxMessageBytes limit = new MaxMessageBytes();
        limit.set(AlterConfigOp.OpType.SET, String.valueOf(bytes));
        return limit;
    }

    /** The topic's {@code max.message.bytes} while set; closing takes it back to the broker's default. */
    public static final class MaxMessageBytes implements AutoCloseable {

        private final Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestBrokers.kafkaBootstrapServers()));

        void set(AlterConfigOp.OpType op, String value) throws Exception {
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, Topology.ORDERS_TOPIC);
            admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                    new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, value), op)))).all().get(10, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            try {
                set(AlterConfigOp.OpType.DELETE, "");
            }
            finally {
                admin.close();
            }
        }
    }

    /** Reads the whole topic from the start and returns the records whose event matches. */
    public static List<ConsumerRecord<String, byte[]>> readAll(Predicate<OrderEvent> wanted) {
        return readAll(TestBrokers.kafkaBootstrapServers(), wanted);
    }

    /** The same on the broker at {@code bootstrapServers}. */
    public static List<ConsumerRecord<String, byte[]>> readAll(String bootstrapServers, Predicate<OrderEvent> wanted) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "order-service-test-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                // as the readers read: an aborted transaction's records are not there
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < Topology.ORDERS_PARTITIONS; p++) {
                partitions.add(new TopicPartition(Topology.ORDERS_TOPIC, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (wanted.test(OrderEventCodec.decode(record.value()))) {
                        found.add(record);
                    }
                }
            }
        }
        return found;
    }
}
