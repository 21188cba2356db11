package dev.lunchrush.backlogmonitor.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The peek consumer against a real Kafka broker: the timestamp of the record at each offset asked, exact;
 * the offsets of every partition fetched together; what was fetched once is not fetched again.
 */
class RecordTimestampsTests {

    @Test
    void answersEveryOffsetExactlyWithOneFetchForAllPartitionsAndNoneForWhatItSawBefore() throws Exception {
        String topic = newTopic(3);
        // partition p's record i was written at BASE + p minutes + i seconds
        Instant base = Instant.parse("2026-11-26T12:20:00.123Z");
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            for (int p = 0; p < 3; p++) {
                for (int i = 0; i < 50; i++) {
                    producer.send(new ProducerRecord<>(topic, p, written(base, p, i).toEpochMilli(), null, new byte[1000]));
                }
            }
            producer.flush();
        }
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        TopicPartition p2 = new TopicPartition(topic, 2);
        Map<String, Object> consumer = new HashMap<>();
        consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        try (RecordTimestamps timestamps = new RecordTimestamps(consumer, Duration.ofSeconds(10))) {
            // two readers on partition 0 (offsets 3 and 40), one on partition 1
            Map<TopicPartition, Map<Long, RecordTimestamps.FirstRecord>> found = timestamps.at(Map.of(p0, List.of(3L, 40L), p1, List.of(0L)));
            assertThat(times(found.get(p0))).containsExactlyInAnyOrderEntriesOf(Map.of(3L, written(base, 0, 3), 40L, written(base, 0, 40)));
            assertThat(times(found.get(p1))).containsExactlyEntriesOf(Map.of(0L, written(base, 1, 0)));
            assertThat(timestamps.fetches()).as("one fetch for both partitions and both readers").isEqualTo(1);

            // a stopped reader, and readers that moved within what was fetched: no fetch
            found = timestamps.at(Map.of(p0, List.of(3L, 20L), p1, List.of(49L)));
            assertThat(times(found.get(p0))).containsExactlyInAnyOrderEntriesOf(Map.of(3L, written(base, 0, 3), 20L, written(base, 0, 20)));
            assertThat(times(found.get(p1))).containsExactlyEntriesOf(Map.of(49L, written(base, 1, 49)));
            assertThat(timestamps.fetches()).isEqualTo(1);

            // a stretch never fetched: one more fetch
            assertThat(times(timestamps.at(Map.of(p2, List.of(45L))).get(p2))).containsExactlyEntriesOf(Map.of(45L, written(base, 2, 45)));
            assertThat(timestamps.fetches()).isEqualTo(2);
        }
    }

    @Test
    void anOffsetWithOnlyATransactionMarkerAfterItEndsThePeekWithoutStreamingTheOtherPartitions() throws Exception {
        String topic = newTopic(2);
        Instant base = Instant.parse("2026-11-26T12:20:00.123Z");
        // partition 0: 20 records in a transaction, then its commit marker at offset 20 (what a reader that read
        // everything has committed); partition 1: a backlog of 3,000 records
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx"))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>(topic, 0, written(base, 0, i).toEpochMilli(), null, new byte[1000]));
            }
            producer.commitTransaction();
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
            for (int i = 0; i < 3_000; i++) {
                producer.send(new ProducerRecord<>(topic, 1, written(base, 1, i).toEpochMilli(), null, new byte[1000]));
            }
            producer.flush();
        }
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        Map<String, Object> consumer = new HashMap<>();
        consumer.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        try (RecordTimestamps timestamps = new RecordTimestamps(consumer, Duration.ofSeconds(10))) {
            Map<TopicPartition, Map<Long, RecordTimestamps.FirstRecord>> found = timestamps.at(Map.of(p0, List.of(20L), p1, List.of(0L)));

            assertThat(times(found.get(p1))).containsExactlyEntriesOf(Map.of(0L, written(base, 1, 0)));
            assertThat(found.get(p0)).as("no record at or after the marker: none, up to the end")
                    .containsExactlyEntriesOf(Map.of(20L, RecordTimestamps.FirstRecord.none(21)));
            assertThat(timestamps.fetches()).isEqualTo(1);
            // waiting for the marker's partition until the timeout, the peek went on fetching partition 1 to its end
            assertThat(timestamps.recordsFetched()).as("records fetched: the first fetch of each partition, not the backlog")
                    .isLessThan(1_000);
            // while the end stays where it was, the marker costs no fetch; once a record follows it, it is the answer
            assertThat(timestamps.at(Map.of(p0, List.of(20L)), Map.of(p0, 21L)).get(p0))
                    .containsExactlyEntriesOf(Map.of(20L, RecordTimestamps.FirstRecord.none(21)));
            assertThat(timestamps.fetches()).isEqualTo(1);
            try (KafkaProducer<byte[], byte[]> producer = producer(Map.of())) {
                producer.send(new ProducerRecord<>(topic, 0, written(base, 0, 21).toEpochMilli(), null, new byte[1000])).get();
            }
            assertThat(timestamps.at(Map.of(p0, List.of(20L)), Map.of(p0, 22L)).get(p0))
                    .containsExactlyEntriesOf(Map.of(20L, new RecordTimestamps.FirstRecord(21, written(base, 0, 21))));
        }
    }

    private static Map<Long, Instant> times(Map<Long, RecordTimestamps.FirstRecord> found) {
        Map<Long, Instant> times = new HashMap<>();
        found.forEach((offset, first) -> times.put(offset, first.timestamp()));
        return times;
    }

    private static KafkaProducer<byte[], byte[]> producer(Map<String, Object> more) {
        Map<String, Object> config = new HashMap<>(more);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(config);
    }

    private static String newTopic(int partitions) throws Exception {
        String topic = "timestamps-" + UUID.randomUUID().toString().substring(0, 8);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
        return topic;
    }

    private static Instant written(Instant base, int partition, int index) {
        return base.plusSeconds(partition * 60L + index);
    }
}
