package dev.lunchrush.chaos;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.Topology;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Pause;

/**
 * The oracle: a topic read by the fault suite (or a scenario test) itself, with a plain consumer in no group
 * (assigned partitions, nothing committed), so that the truth the services are compared with comes from the log
 * and not from any service: between two marks (each partition's end offset when a scenario began and when it
 * ended), or all of it.
 */
public final class TheLog {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(120);

    private final String bootstrapServers;

    public TheLog(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** What a range of the orders topic holds: the order ids in log order, and the records that are no order. */
    public record Contents(List<String> orderIds, long poison) {
    }

    /** A record of the orders topic, decoded. */
    public record Entry(int partition, long offset, @Nullable String key, Instant timestamp, OrderEvent event) {
    }

    /** Each partition's end offset: where a reader that has read everything stands. Waits a minute for the topic. */
    public Map<TopicPartition, Long> endOffsets(String topic) {
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

    /** The end offsets of the partitions that hold records: what a group that has read everything committed. */
    public Map<TopicPartition, Long> nonEmptyEndOffsets(String topic) {
        Map<TopicPartition, Long> end = new HashMap<>(endOffsets(topic));
        end.values().removeIf(offset -> offset == 0);
        return end;
    }

    /** The offsets a consumer group committed on the topic, per partition. */
    public Map<TopicPartition, Long> committed(String topic, String group) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        try (Admin admin = Admin.create(config)) {
            Map<TopicPartition, Long> committed = new HashMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().forEach((partition, offset) -> {
                if (offset != null && partition.topic().equals(topic)) {
                    committed.put(partition, offset.offset());
                }
            });
            return committed;
        }
        catch (ExecutionException ex) {
            throw new DemoException("could not read the offsets of group " + group + ": " + ex.getCause().getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }

    /** Records from {@code from} (inclusive) up to {@code to} (exclusive), per partition. */
    public Contents read(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
        List<String> ids = new ArrayList<>();
        long[] poison = {0};
        scan(from, to, record -> {
            try {
                ids.add(OrderEventCodec.decode(record.value()).orderId());
            }
            catch (OrderEventFormatException ex) {
                poison[0]++;
            }
        });
        return new Contents(ids, poison[0]);
    }

    /**
     * Every record now in the orders topic, decoded: partition after partition, each in offset order. A record
     * that is no order fails it.
     */
    public List<Entry> readAll() {
        Map<TopicPartition, Long> end = endOffsets(Topology.ORDERS_TOPIC);
        Map<TopicPartition, Long> start;
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            start = consumer.beginningOffsets(end.keySet(), Duration.ofSeconds(30));
        }
        Map<Integer, List<Entry>> byPartition = new TreeMap<>();
        scan(start, end, record -> byPartition.computeIfAbsent(record.partition(), partition -> new ArrayList<>())
                .add(new Entry(record.partition(), record.offset(),
                        record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8),
                        Instant.ofEpochMilli(record.timestamp()), OrderEventCodec.decode(record.value()))));
        return byPartition.values().stream().flatMap(List::stream).toList();
    }

    /** Hands each record from {@code from} (inclusive) up to {@code to} (exclusive) to {@code each}, per partition. */
    private void scan(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
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
                    each.accept(record);
                    if (record.offset() + 1 >= end) {
                        remaining.remove(partition);
                    }
                }
                // a partition whose last offsets are transaction markers or compacted away ends by position
                remaining.keySet().removeIf(partition -> consumer.position(partition) >= remaining.get(partition));
            }
        }
    }

    /** A topic's end offsets asked of one consumer as often as needed, to watch records arrive. */
    public Watch watch(String topic) {
        return new Watch(consumer(), endOffsets(topic).keySet());
    }

    public static final class Watch implements AutoCloseable {

        private final KafkaConsumer<byte[], byte[]> consumer;
        private final java.util.Set<TopicPartition> partitions;

        private Watch(KafkaConsumer<byte[], byte[]> consumer, java.util.Set<TopicPartition> partitions) {
            this.consumer = consumer;
            this.partitions = partitions;
        }

        /** The records (and transaction markers) appended since the offsets {@code from}. */
        public long appendedSince(Map<TopicPartition, Long> from) {
            return consumer.endOffsets(partitions, Duration.ofSeconds(10)).entrySet().stream()
                    .mapToLong(end -> end.getValue() - from.getOrDefault(end.getKey(), 0L)).sum();
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    /** A topic's records that are in the log but not yet committed, asked as often as needed. */
    public TransactionWatch watchTransactions(String topic) {
        Properties config = new Properties();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "demo-chaos-transactions");
        return new TransactionWatch(Admin.create(config), endOffsets(topic).keySet());
    }

    /**
     * The records of open transactions: each partition's end (its high watermark, read uncommitted) less its last
     * stable offset (read committed), which stops at the first record of a transaction not yet committed or aborted.
     * Both are asked at once, in one round trip.
     */
    public static final class TransactionWatch implements AutoCloseable {

        private final Admin admin;
        private final Map<TopicPartition, OffsetSpec> latest = new HashMap<>();

        private TransactionWatch(Admin admin, java.util.Set<TopicPartition> partitions) {
            this.admin = admin;
            partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
        }

        /** Records in the log whose transaction is still open, all partitions together. */
        public long uncommitted() {
            KafkaFuture<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>> end = admin.listOffsets(latest,
                    new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).all();
            KafkaFuture<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>> stable = admin.listOffsets(latest,
                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all();
            try {
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> stableOffsets = stable.get(10, TimeUnit.SECONDS);
                return end.get(10, TimeUnit.SECONDS).entrySet().stream()
                        .mapToLong(e -> e.getValue().offset() - stableOffsets.get(e.getKey()).offset()).sum();
            }
            catch (ExecutionException | java.util.concurrent.TimeoutException ex) {
                throw new DemoException("could not read the log's end offsets: " + ex.getMessage());
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new DemoException("interrupted");
            }
        }

        @Override
        public void close() {
            admin.close();
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
