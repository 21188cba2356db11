package dev.lunchrush.loadgenerator.chaos;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.loadgenerator.DemoException;
import dev.lunchrush.loadgenerator.Pause;

/**
 * The oracle: a topic read by the chaos suite itself, with a plain consumer in no group, between two marks
 * (each partition's end offset when a scenario began and when it ended).
 */
final class TheLog {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(120);

    private final String bootstrapServers;

    TheLog(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** What a range of the orders topic holds: the order ids in log order, and the records that are no order. */
    record Contents(List<String> orderIds, long poison) {
    }

    Map<TopicPartition, Long> endOffsets(String topic) {
        // the order service creates the topics when it starts, in the background: give it a minute
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            while (true) {
                List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                        .map(info -> new TopicPartition(topic, info.partition())).toList();
                if (!partitions.isEmpty()) {
                    return consumer.endOffsets(partitions, Duration.ofSeconds(30));
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new DemoException("the topic " + topic + " does not exist at " + bootstrapServers
                            + " (the order service creates it when it starts with Kafka reachable)");
                }
                Pause.sleep(Duration.ofSeconds(1));
            }
        }
    }

    /** Records from {@code from} (inclusive) up to {@code to} (exclusive), per partition. */
    Contents read(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
        List<String> ids = new ArrayList<>();
        long poison = 0;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            consumer.assign(to.keySet());
            Map<TopicPartition, Long> remaining = new HashMap<>();
            to.forEach((partition, end) -> {
                long start = from.getOrDefault(partition, 0L);
                consumer.seek(partition, start);
                if (end > start) {
                    remaining.put(partition, end);
                }
            });
            Instant deadline = Instant.now().plus(READ_TIMEOUT);
            while (!remaining.isEmpty()) {
                if (Instant.now().isAfter(deadline)) {
                    throw new DemoException("could not read the log to its end within " + READ_TIMEOUT.toSeconds()
                            + " s: still missing " + remaining);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
                    Long end = remaining.get(partition);
                    if (end == null || record.offset() >= end) {
                        continue;
                    }
                    try {
                        ids.add(OrderEventCodec.decode(record.value()).orderId());
                    }
                    catch (OrderEventFormatException ex) {
                        poison++;
                    }
                    if (record.offset() + 1 >= end) {
                        remaining.remove(partition);
                    }
                }
                // a partition whose last offsets are transaction markers or compacted away ends by position
                remaining.keySet().removeIf(partition -> consumer.position(partition) >= remaining.get(partition));
            }
        }
        return new Contents(ids, poison);
    }

    /** A topic's end offsets asked of one consumer as often as needed, to watch records arrive. */
    Watch watch(String topic) {
        return new Watch(consumer(), endOffsets(topic).keySet());
    }

    static final class Watch implements AutoCloseable {

        private final KafkaConsumer<byte[], byte[]> consumer;
        private final java.util.Set<TopicPartition> partitions;

        private Watch(KafkaConsumer<byte[], byte[]> consumer, java.util.Set<TopicPartition> partitions) {
            this.consumer = consumer;
            this.partitions = partitions;
        }

        /** The records (and transaction markers) appended since the offsets {@code from}. */
        long appendedSince(Map<TopicPartition, Long> from) {
            return consumer.endOffsets(partitions, Duration.ofSeconds(10)).entrySet().stream()
                    .mapToLong(end -> end.getValue() - from.getOrDefault(end.getKey(), 0L)).sum();
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "demo-chaos-oracle");
        return new KafkaConsumer<>(config);
    }
}
