package dev.lunchrush.orderservice.publishing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.problems.ProblemException;

/**
 * Live orders whose record Kafka's producer gave up on (its delivery timeout passed) while it may have been on its way:
 * a broker that stood still writes what it had received when it goes on, after the producer said "failed". Their
 * outcome is learnt from the log once it is final there. It is final after the producer's next acknowledgement on the
 * same partition: the producer sends nothing more to a partition until it has settled the sequence of a record it
 * gave up on (found written, or a new producer epoch, which the broker then holds against anything older), so nothing
 * given up before that acknowledgement can land after it. Without one (no more orders for that partition), the log is
 * read after {@value #QUIET_SECONDS} s, when a broker that goes on has long handled what it held.
 *
 * <p>The log is read, from a minute before the oldest such order's placedAt (by the records' timestamps) to the
 * final offset, once for all the orders given up on a partition; each found is written, each not found is not. Costs
 * nothing while no record is given up: an acknowledgement looks at one counter.
 */
final class GivenUpRecords implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GivenUpRecords.class);

    static final int QUIET_SECONDS = 30;
    private static final Duration READ_LIMIT = Duration.ofSeconds(60);
    private static final Duration READ_AGAIN = Duration.ofSeconds(5);
    private static final long MARGIN_MILLIS = 60_000;

    private final Map<String, Object> consumerConfig;
    private final Map<Integer, Queue<Pending>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger count = new AtomicInteger();
    private final ScheduledExecutorService reads = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "kafka-given-up");
        thread.setDaemon(true);
        return thread;
    });
    private final Counter givenUp;
    private final Counter foundWritten;

    /** An order given up on, since when, and its outcome. */
    private record Pending(String orderId, long placedAtMillis, long givenUpNanos, CompletableFuture<Void> written) {
    }

    GivenUpRecords(Object bootstrapServers, MeterRegistry registry) {
        this.consumerConfig = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                // live orders are no transaction's: an open import must not hold the reading back
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.CLIENT_ID_CONFIG, "order-service-given-up",
                ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 4 * 1024 * 1024);
        this.givenUp = Counter.builder("orders.kafka.given.up")
                .description("live orders whose record Kafka's producer gave up on while it may have been on its way")
                .register(registry);
        this.foundWritten = Counter.builder("orders.kafka.given.up.written")
                .description("of those, the orders the log turned out to hold").register(registry);
    }

    /** The order's record, given up on the partition: its outcome, once the log says it (fails when not written). */
    CompletableFuture<Void> add(OrderEvent event, int partition) {
        Pending entry = new Pending(event.orderId(), event.placedAt().toEpochMilli(), System.nanoTime(),
                new CompletableFuture<>());
        pending.computeIfAbsent(partition, key -> new ConcurrentLinkedQueue<>()).add(entry);
        count.incrementAndGet();
        givenUp.increment();
        reads.schedule(() -> settle(partition, -1, System.nanoTime() - TimeUnit.SECONDS.toNanos(QUIET_SECONDS)),
                QUIET_SECONDS, TimeUnit.SECONDS);
        return entry.written();
    }

    /** The producer acknowledged a record at {@code offset}: what it gave up on that partition before is final. */
    void acknowledged(int partition, long offset) {
        if (count.get() == 0) {
            return;
        }
        long now = System.nanoTime();
        reads.execute(() -> settle(partition, offset, now));
    }

    /**
     * Reads the partition up to {@code lastOffset} (or its end, when -1) for the orders given up on it by
     * {@code givenUpBy}, and settles them.
     */
    private void settle(int partition, long lastOffset, long givenUpBy) {
        Queue<Pending> queue = pending.get(partition);
        List<Pending> settling = new ArrayList<>();
        if (queue != null) {
            queue.removeIf(entry -> entry.givenUpNanos() - givenUpBy <= 0 && settling.add(entry));
        }
        if (settling.isEmpty()) {
            return;
        }
        try {
            Set<String> found = read(partition, lastOffset, settling);
            for (Pending entry : settling) {
                if (found.contains(entry.orderId())) {
                    foundWritten.increment();
                    entry.written().complete(null);
                }
                else {
                    entry.written().completeExceptionally(ProblemException.unavailable(
                            "Kafka's producer gave up on the order and the log does not hold it: it was not written"));
                }
            }
            count.addAndGet(-settling.size());
            log.info("{} orders Kafka's producer gave up on in partition {}: {} found written in the log", settling.size(),
                    partition, found.size());
        }
        catch (KafkaException | IllegalStateException ex) {
            log.warn("could not read partition {} for {} orders Kafka's producer gave up on ({}): reading again in {} s",
                    partition, settling.size(), ex.getMessage(), READ_AGAIN.toSeconds());
            queue.addAll(settling);
            reads.schedule(() -> settle(partition, lastOffset, givenUpBy), READ_AGAIN.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** The ids among {@code wanted} in the partition, from a minute before the oldest's placedAt to {@code lastOffset}. */
    private Set<String> read(int partition, long lastOffset, List<Pending> wanted) {
        Set<String> ids = new HashSet<>();
        wanted.forEach(entry -> ids.add(entry.orderId()));
        long from = wanted.stream().mapToLong(Pending::placedAtMillis).min().orElseThrow() - MARGIN_MILLIS;
        TopicPartition topicPartition = new TopicPartition(Topology.ORDERS_TOPIC, partition);
        Set<String> found = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(topicPartition));
            long end = lastOffset >= 0 ? lastOffset + 1
                    : consumer.endOffsets(List.of(topicPartition), READ_LIMIT).get(topicPartition);
            OffsetAndTimestamp start = consumer.offsetsForTimes(Map.of(topicPartition, from), READ_LIMIT).get(topicPartition);
            if (start == null) {
                // no record placed since: none of them is there
                return found;
            }
            consumer.seek(topicPartition, start.offset());
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (consumer.position(topicPartition, READ_LIMIT) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the log was not read to offset " + end + " within " + READ_LIMIT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    String orderId = record.offset() < end ? orderId(record.value()) : "";
                    if (ids.contains(orderId)) {
                        found.add(orderId);
                    }
                }
            }
        }
        return found;
    }

    private static String orderId(byte[] value) {
        try {
            return OrderEventCodec.decode(value).orderId();
        }
        catch (RuntimeException ex) {
            return "";
        }
    }

    @Override
    public void close() {
        reads.shutdownNow();
    }
}
