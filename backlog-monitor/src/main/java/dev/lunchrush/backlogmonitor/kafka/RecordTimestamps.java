package dev.lunchrush.backlogmonitor.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

/**
 * Finds the first record at or after given offsets, with its timestamp: a consumer of no group, assigned the
 * topic's partitions, that seeks each partition to the lowest offset asked and fetches from there, every
 * partition in the same fetch. A transaction marker or a compacted gap has no record of its own: the answer
 * for such an offset is the next record, or, where only transaction markers follow to the end, none (a
 * reader that read every record of an import commits the offset of its commit marker). Every record fetched
 * is remembered by its offset, so that the other groups' offsets on the same stretch of the log, and the next
 * polls' offsets of a stopped reader, cost no fetch; an offset with only markers after it is remembered with
 * the end it was seen with, and costs no fetch while the end stays there. Used from the Kafka poll thread only (a KafkaConsumer is not thread-safe).
 */
class RecordTimestamps implements AutoCloseable {

    /** (partition, offset) answers and fetched records remembered, least recently used forgotten first */
    private static final int CACHED = 16_384;
    /** per partition and fetch: ~120 orders of ~1 KB, which covers the readers that keep up, all of them at once */
    private static final int PARTITION_FETCH_BYTES = 128 * 1024;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Duration timeout;
    private final Map<Key, FirstRecord> cache = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, FirstRecord> eldest) {
            return size() > CACHED;
        }
    };
    /** offsets with only transaction markers after them, and the end offset they were seen with */
    private final Map<Key, FirstRecord> markersOnly = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, FirstRecord> eldest) {
            return size() > CACHED;
        }
    };
    private Set<TopicPartition> assigned = Set.of();
    private long fetches;
    private long recordsFetched;

    RecordTimestamps(Map<String, Object> consumerProperties, Duration timeout) {
        Map<String, Object> config = new HashMap<>(consumerProperties);
        // no group: nothing is joined, nothing committed, no reader's offsets touched
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "backlog-monitor-peek");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, PARTITION_FETCH_BYTES);
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 4 * 1024 * 1024);
        // an offset below the log start (retention deleted it): the oldest record still held
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        this.consumer = new KafkaConsumer<>(config);
        this.timeout = timeout;
    }

    /**
     * The first record at or after an offset asked, or {@link FirstRecord#none}: only transaction markers from
     * there to {@code end} (the end offset the consumer reached).
     *
     * @param offset the record's offset, or the end where there is none
     * @param timestamp the record's timestamp, null where there is none
     */
    record FirstRecord(long offset, @Nullable Instant timestamp) {

        static FirstRecord none(long end) {
            return new FirstRecord(end, null);
        }

        boolean exists() {
            return timestamp != null;
        }
    }

    /** {@link #at(Map, Map)} without the end offsets: an offset with only markers after it is always fetched again. */
    Map<TopicPartition, Map<Long, FirstRecord>> at(Map<TopicPartition, ? extends Collection<Long>> offsets) {
        return at(offsets, Map.of());
    }

    /**
     * The first record at or after each offset asked, per partition; an offset whose record did not arrive
     * within the timeout is absent from the answer.
     *
     * @param ends the partitions' end offsets now: an offset seen with only markers up to the same end is not
     *     fetched again
     */
    Map<TopicPartition, Map<Long, FirstRecord>> at(Map<TopicPartition, ? extends Collection<Long>> offsets,
            Map<TopicPartition, Long> ends) {
        Map<TopicPartition, Map<Long, FirstRecord>> found = new HashMap<>();
        Map<TopicPartition, NavigableSet<Long>> missing = new HashMap<>();
        offsets.forEach((partition, wanted) -> {
            for (long offset : wanted) {
                Key key = new Key(partition, offset);
                FirstRecord cached = cache.get(key);
                if (cached == null) {
                    FirstRecord none = markersOnly.get(key);
                    Long end = ends.get(partition);
                    cached = none != null && end != null && end <= none.offset() ? none : null;
                }
                if (cached != null) {
                    found.computeIfAbsent(partition, p -> new HashMap<>()).put(offset, cached);
                }
                else {
                    missing.computeIfAbsent(partition, p -> new TreeSet<>()).add(offset);
                }
            }
        });
        if (missing.isEmpty()) {
            return found;
        }
        assign(offsets.keySet());
        long deadline = System.nanoTime() + timeout.toNanos();
        // each round: every partition with offsets missing is fetched from its lowest one, all in one fetch
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            Set<TopicPartition> targets = new HashSet<>(missing.keySet());
            for (TopicPartition partition : targets) {
                consumer.seek(partition, missing.get(partition).first());
            }
            consumer.resume(targets);
            Set<TopicPartition> idle = new HashSet<>(assigned);
            idle.removeAll(targets);
            consumer.pause(idle);
            fetches++;
            Set<TopicPartition> answered = new HashSet<>();
            while (!answered.containsAll(targets) && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                recordsFetched += records.count();
                for (TopicPartition partition : records.partitions()) {
                    if (targets.contains(partition) && answered.add(partition)) {
                        answer(partition, records.records(partition), missing, found);
                        // answered: not one fetch more of it while the others are waited for (a reader far
                        // behind would otherwise stream its backlog through here until they answer)
                        consumer.pause(List.of(partition));
                    }
                }
                for (TopicPartition partition : targets) {
                    if (!answered.contains(partition) && nothingAfter(partition, missing.get(partition))) {
                        // only transaction markers from the offset asked to the end: no record to date it by
                        answered.add(partition);
                        FirstRecord none = FirstRecord.none(consumer.position(partition));
                        for (long offset : missing.remove(partition)) {
                            markersOnly.put(new Key(partition, offset), none);
                            found.computeIfAbsent(partition, p -> new HashMap<>()).put(offset, none);
                        }
                        consumer.pause(List.of(partition));
                    }
                }
            }
        }
        // nothing is fetched between polls
        consumer.pause(assigned);
        return found;
    }

    /**
     * The records of a fetch that started at the partition's lowest missing offset: every missing offset up to
     * the last of them is answered by the first record at or after it.
     */
    private void answer(TopicPartition partition, List<ConsumerRecord<byte[], byte[]>> records,
            Map<TopicPartition, NavigableSet<Long>> missing, Map<TopicPartition, Map<Long, FirstRecord>> found) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            cache.put(new Key(partition, record.offset()), new FirstRecord(record.offset(), Instant.ofEpochMilli(record.timestamp())));
        }
        NavigableSet<Long> wanted = missing.get(partition);
        int next = 0;
        for (Iterator<Long> it = wanted.headSet(records.get(records.size() - 1).offset(), true).iterator(); it.hasNext();) {
            long offset = it.next();
            while (records.get(next).offset() < offset) {
                next++;
            }
            FirstRecord first = new FirstRecord(records.get(next).offset(), Instant.ofEpochMilli(records.get(next).timestamp()));
            cache.put(new Key(partition, offset), first);
            found.computeIfAbsent(partition, p -> new HashMap<>()).put(offset, first);
            it.remove();
        }
        if (wanted.isEmpty()) {
            missing.remove(partition);
        }
    }

    /**
     * Whether the consumer read past every offset still asked of the partition, to its end, and found no record:
     * they are offsets of transaction markers (a reader that read everything commits the offset after its last
     * record, the marker's). Having moved past them, the consumer has had a fetch answered since the seek, so
     * the lag it reports is that answer's, not an older one's.
     */
    private boolean nothingAfter(TopicPartition partition, NavigableSet<Long> asked) {
        if (consumer.position(partition) <= asked.last()) {
            return false;
        }
        OptionalLong lag = consumer.currentLag(partition);
        return lag.isPresent() && lag.getAsLong() == 0;
    }

    private void assign(Collection<TopicPartition> partitions) {
        if (assigned.containsAll(partitions)) {
            return;
        }
        Set<TopicPartition> all = new HashSet<>(assigned);
        all.addAll(partitions);
        consumer.assign(new ArrayList<>(all));
        assigned = Set.copyOf(all);
        consumer.pause(assigned);
    }

    /** Fetch rounds so far (tests, and whoever debugs). */
    long fetches() {
        return fetches;
    }

    /** Records the consumer handed over so far (tests, and whoever debugs). */
    long recordsFetched() {
        return recordsFetched;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }

    private record Key(TopicPartition partition, long offset) {
    }
}
