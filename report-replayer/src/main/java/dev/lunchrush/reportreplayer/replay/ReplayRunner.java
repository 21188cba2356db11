package dev.lunchrush.reportreplayer.replay;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.OrderTally;
import dev.lunchrush.reportreplayer.ReplayerProperties;
import dev.lunchrush.reportreplayer.log.OrderLog;
import dev.lunchrush.reportreplayer.report.DayReport;
import dev.lunchrush.reportreplayer.report.DayReportBuilder;

/**
 * Reads a plan's ranges and adds up the day. The partitions are shared among at most
 * {@code lunchrush.replay.readers} readers, each a consumer of no group (assign + seek, nothing committed) in a
 * thread of its own with a report builder of its own; the builders are merged once every reader is done. Records
 * are decoded in the polling thread: decoding keeps up with the fetches, and records whose timestamp is far from
 * the day are not decoded at all.
 */
@Component
class ReplayRunner {

    private static final Logger log = LoggerFactory.getLogger(ReplayRunner.class);

    /**
     * The record timestamp is the order's placedAt (CreateTime); records further than this from the
     * day are not decoded. The margin only guards against a producer that set a slightly different
     * timestamp: the day's filter itself is on placedAt.
     */
    private static final Duration TIMESTAMP_MARGIN = Duration.ofMinutes(5);

    /** A replay that reads nothing for this long fails instead of waiting for ever. */
    private static final Duration STALL_LIMIT = Duration.ofSeconds(60);

    private final OrderLog orderLog;
    private final Clock clock;
    private final int readers;

    ReplayRunner(OrderLog orderLog, Clock clock, ReplayerProperties properties) {
        this.orderLog = orderLog;
        this.clock = clock;
        this.readers = properties.replay().readers();
    }

    DayReport run(Replay replay, ReplayPlan plan) {
        DayReportBuilder day = new DayReportBuilder(plan.date(), plan.zone());
        List<List<TopicPartition>> shares = shares(plan.ranges(), readers);
        if (shares.size() == 1) {
            read(replay, plan, shares.get(0), day, "report-replayer-" + replay.id());
        }
        else if (!shares.isEmpty()) {
            readSideBySide(replay, plan, shares, day);
        }
        DayReport report = day.build(new DayReport.Provenance(replay.id(), plan.from(), plan.to(), replay.read(),
                replay.poison(), replay.startedAt(), clock.instant()));
        log.info("replay {} of {} in {} by {} readers: {} records read, {} orders, {} poison, {} records/s", replay.id(),
                plan.date(), plan.zone(), shares.size(), replay.read(), report.totalOrders(), replay.poison(),
                Math.round(replay.ratePerSecond()));
        return report;
    }

    /**
     * The partitions with something to read, shared among at most {@code readers}: the largest range first, each to
     * the reader with the fewest records so far, so that the readers finish together.
     */
    static List<List<TopicPartition>> shares(Map<TopicPartition, ReplayPlan.Range> ranges, int readers) {
        List<TopicPartition> toRead = new ArrayList<>();
        ranges.forEach((partition, range) -> {
            if (range.size() > 0) {
                toRead.add(partition);
            }
        });
        toRead.sort(Comparator.comparingLong((TopicPartition partition) -> ranges.get(partition).size()).reversed()
                .thenComparing(TopicPartition::partition));
        int count = Math.min(readers, toRead.size());
        List<List<TopicPartition>> shares = new ArrayList<>();
        long[] records = new long[count];
        for (int reader = 0; reader < count; reader++) {
            shares.add(new ArrayList<>());
        }
        for (TopicPartition partition : toRead) {
            int least = 0;
            for (int reader = 1; reader < count; reader++) {
                if (records[reader] < records[least]) {
                    least = reader;
                }
            }
            shares.get(least).add(partition);
            records[least] += ranges.get(partition).size();
        }
        return shares;
    }

    /**
     * One thread per share, each with its own consumer and builder, merged into {@code day}. The first reader to
     * fail stops the others (interrupted: a consumer's poll then throws) and its failure is the replay's.
     */
    private void readSideBySide(Replay replay, ReplayPlan plan, List<List<TopicPartition>> shares,
            DayReportBuilder day) {
        AtomicInteger number = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(shares.size(), runnable -> {
            Thread thread = new Thread(runnable, Thread.currentThread().getName() + "-reader-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            CompletionService<DayReportBuilder> done = new ExecutorCompletionService<>(pool);
            for (int reader = 0; reader < shares.size(); reader++) {
                List<TopicPartition> share = shares.get(reader);
                String clientId = "report-replayer-" + replay.id() + "-" + reader;
                done.submit(() -> {
                    DayReportBuilder part = new DayReportBuilder(plan.date(), plan.zone());
                    read(replay, plan, share, part, clientId);
                    return part;
                });
            }
            for (int finished = 0; finished < shares.size(); finished++) {
                day.merge(done.take().get());
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the replay was interrupted", ex);
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (ex.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(ex.getCause());
        }
        finally {
            pool.shutdownNow();
        }
    }

    /** Reads the ranges of {@code toRead} to their ends into {@code day}, reporting progress after every poll. */
    private void read(Replay replay, ReplayPlan plan, List<TopicPartition> toRead, DayReportBuilder day,
            String clientId) {
        long lowest = plan.from().minus(TIMESTAMP_MARGIN).toEpochMilli();
        long highest = plan.to().plus(TIMESTAMP_MARGIN).toEpochMilli();
        KafkaConsumer<ByteBuffer, ByteBuffer> consumer = orderLog.reader(clientId);
        try {
            consumer.assign(toRead);
            toRead.forEach(partition -> consumer.seek(partition, plan.ranges().get(partition).start()));
            Set<TopicPartition> remaining = new HashSet<>(toRead);
            long lastProgress = System.nanoTime();
            while (!remaining.isEmpty()) {
                ConsumerRecords<ByteBuffer, ByteBuffer> records = consumer.poll(Duration.ofMillis(500));
                long read = 0;
                long counted = 0;
                long poison = 0;
                for (TopicPartition partition : records.partitions()) {
                    long end = plan.ranges().get(partition).end();
                    for (ConsumerRecord<ByteBuffer, ByteBuffer> record : records.records(partition)) {
                        if (record.offset() >= end) {
                            break;
                        }
                        read++;
                        if (record.timestamp() < lowest || record.timestamp() >= highest) {
                            continue;
                        }
                        OrderTally order = decode(record);
                        if (order == null) {
                            poison++;
                        }
                        else if (day.add(order)) {
                            counted++;
                        }
                    }
                }
                replay.progress(read, counted, poison);
                if (read > 0) {
                    lastProgress = System.nanoTime();
                }
                finishReadPartitions(consumer, plan.ranges(), remaining);
                if (!remaining.isEmpty() && System.nanoTime() - lastProgress > STALL_LIMIT.toNanos()) {
                    throw new IllegalStateException("nothing read for " + STALL_LIMIT.toSeconds() + " s, "
                            + replay.read() + " of " + replay.expected() + " read: is Kafka reachable?");
                }
            }
        }
        finally {
            // No group, nothing to commit: nothing to wait for. A default close would wait for the fetch sent after
            // the last records, which the broker holds for fetch.max.wait.ms at the log's end, and for the fetch
            // session's close: time added to every replay for nothing.
            consumer.close(CloseOptions.timeout(Duration.ZERO));
        }
    }

    /** What the day's report needs of the order in the record; null for a poison record (no value, or not an order). */
    private static @Nullable OrderTally decode(ConsumerRecord<ByteBuffer, ByteBuffer> record) {
        ByteBuffer value = record.value();
        if (value == null) {
            return null;
        }
        try {
            if (value.hasArray()) {
                return OrderEventCodec.decodeTally(value.array(), value.arrayOffset() + value.position(),
                        value.remaining());
            }
            byte[] copy = new byte[value.remaining()];
            value.duplicate().get(copy);
            return OrderEventCodec.decodeTally(copy, 0, copy.length);
        }
        catch (OrderEventFormatException ex) {
            return null;
        }
    }

    private static void finishReadPartitions(KafkaConsumer<ByteBuffer, ByteBuffer> consumer,
            Map<TopicPartition, ReplayPlan.Range> ranges, Set<TopicPartition> remaining) {
        List<TopicPartition> finished = new ArrayList<>();
        for (TopicPartition partition : remaining) {
            // position, not the last record seen: transaction markers and gaps have offsets but no records
            if (consumer.position(partition) >= ranges.get(partition).end()) {
                finished.add(partition);
            }
        }
        if (!finished.isEmpty()) {
            consumer.pause(finished);
            finished.forEach(remaining::remove);
        }
    }
}
