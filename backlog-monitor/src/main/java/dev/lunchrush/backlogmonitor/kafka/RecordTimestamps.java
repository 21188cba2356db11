package dev.lunchrush.backlogmonitor.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

/**
 * Reads the timestamp of the record at a given offset: a consumer of no group that assigns the
 * partition, seeks and fetches one record. A (partition, offset) is read once and remembered: a
 * stopped reader's committed offset does not move, so each poll after the first costs nothing.
 * Used from the Kafka poll thread only (a KafkaConsumer is not thread-safe).
 */
class RecordTimestamps implements AutoCloseable {

    private static final int CACHED = 4096;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration timeout;
    private final Map<Key, Instant> cache = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Instant> eldest) {
            return size() > CACHED;
        }
    };

    RecordTimestamps(Map<String, Object> consumerProperties, Duration timeout) {
        Map<String, Object> config = new HashMap<>(consumerProperties);
        // no group: nothing is joined, nothing committed, no reader's offsets touched
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "backlog-monitor-peek");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1);
        // the record at the offset is all we need; 1 MB is enough for a ~1 KB order and its batch
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 1024 * 1024);
        // an offset below the log start (retention deleted it): the oldest record still held
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumer = new KafkaConsumer<>(config);
        this.timeout = timeout;
    }

    /** The timestamp of the record at {@code offset} (or the first one after it); null when none arrives in time. */
    @Nullable Instant at(TopicPartition partition, long offset) {
        Key key = new Key(partition, offset);
        Instant cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        consumer.assign(List.of(partition));
        consumer.seek(partition, offset);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200)).records(partition)) {
                // a transaction marker or a compacted gap: the next record is the oldest unread one
                if (record.offset() >= offset) {
                    Instant timestamp = Instant.ofEpochMilli(record.timestamp());
                    cache.put(key, timestamp);
                    return timestamp;
                }
            }
        }
        return null;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }

    private record Key(TopicPartition partition, long offset) {
    }
}
