package dev.lunchrush.scenarios;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.TestBrokers;

/**
 * The Kafka topic {@code orders} read by the test itself, outside every consumer group (assigned
 * partitions, nothing committed), so that the truth the services are compared with comes from the log
 * and not from any service.
 */
final class TheLog {

    private TheLog() {
    }

    /** A record of the log, decoded. */
    record Entry(int partition, long offset, String key, Instant timestamp, OrderEvent event) {
    }

    /** Every record now in the topic, per partition in offset order, partitions one after the other. */
    static List<Entry> readAll() {
        return readAll(TestBrokers.kafkaBootstrapServers());
    }

    /** Every record now in the topic of the broker at {@code bootstrapServers}. */
    static List<Entry> readAll(String bootstrapServers) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(Topology.ORDERS_TOPIC, Duration.ofSeconds(30))) {
                partitions.add(new TopicPartition(info.topic(), info.partition()));
            }
            partitions.sort(Comparator.comparingInt(TopicPartition::partition));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            Map<Integer, List<Entry>> byPartition = new HashMap<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read the topic to its end " + end + " within 60 s");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (record.offset() >= end.get(new TopicPartition(record.topic(), record.partition()))) {
                        continue;
                    }
                    byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>())
                            .add(new Entry(record.partition(), record.offset(), record.key(),
                                    Instant.ofEpochMilli(record.timestamp()), OrderEventCodec.decode(record.value())));
                }
            }
            List<Entry> all = new ArrayList<>();
            partitions.forEach(p -> all.addAll(byPartition.getOrDefault(p.partition(), List.of())));
            return all;
        }
    }

    /** The end offset of each partition: where a reader that has read everything stands. */
    static Map<TopicPartition, Long> endOffsets() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topology.ORDERS_TOPIC, Duration.ofSeconds(30)).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            return consumer.endOffsets(partitions, Duration.ofSeconds(30));
        }
    }

    /** The end offsets of the partitions that hold records: what a group that read everything committed. */
    static Map<TopicPartition, Long> nonEmptyEndOffsets() {
        Map<TopicPartition, Long> end = new HashMap<>(endOffsets());
        end.values().removeIf(offset -> offset == 0);
        return end;
    }

    /** The offsets a consumer group committed on the topic, per partition. */
    static Map<TopicPartition, Long> committed(String group) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        try (Admin admin = Admin.create(config)) {
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, Long> committed = new HashMap<>();
            offsets.forEach((partition, offset) -> {
                if (offset != null && partition.topic().equals(Topology.ORDERS_TOPIC)) {
                    committed.put(partition, offset.offset());
                }
            });
            return committed;
        }
        catch (Exception ex) {
            throw new IllegalStateException("could not read the offsets of group " + group, ex);
        }
    }
}
