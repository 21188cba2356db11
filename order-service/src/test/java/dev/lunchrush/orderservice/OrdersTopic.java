package dev.lunchrush.orderservice;

import dev.lunchrush.testing.TestBrokers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;

/** Reads the test broker's {@code orders} topic from outside, as a reader would. */
public final class OrdersTopic {

    private OrdersTopic() {
    }

    /** Reads the whole topic from the start and returns the records whose event matches. */
    public static List<ConsumerRecord<String, byte[]>> readAll(Predicate<OrderEvent> wanted) {
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "order-service-test-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
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
