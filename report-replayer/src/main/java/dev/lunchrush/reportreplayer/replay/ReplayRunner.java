package dev.lunchrush.reportreplayer.replay;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import dev.lunchrush.reportreplayer.log.OrderLog;
import dev.lunchrush.reportreplayer.report.DayReport;
import dev.lunchrush.reportreplayer.report.DayReportBuilder;

/**
 * Reads a plan's ranges with a consumer of no group (assign + seek, nothing committed) and adds up
 * the day. Records are decoded in the polling thread: decoding keeps up with the fetches, and
 * records whose timestamp is far from the day are not decoded at all.
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

    ReplayRunner(OrderLog orderLog, Clock clock) {
        this.orderLog = orderLog;
        this.clock = clock;
    }

    DayReport run(Replay replay, ReplayPlan plan) {
        DayReportBuilder day = new DayReportBuilder(plan.date(), plan.zone());
        List<TopicPartition> toRead = new ArrayList<>();
        plan.ranges().forEach((partition, range) -> {
            if (range.size() > 0) {
                toRead.add(partition);
            }
        });
        if (!toRead.isEmpty()) {
            read(replay, plan, toRead, day);
        }
        DayReport report = day.build(new DayReport.Provenance(replay.id(), plan.from(), plan.to(), replay.read(),
                replay.poison(), replay.startedAt(), clock.instant()));
        log.info("replay {} of {} in {}: {} records read, {} orders, {} poison, {} records/s", replay.id(), plan.date(),
                plan.zone(), replay.read(), report.totalOrders(), replay.poison(), Math.round(replay.ratePerSecond()));
        return report;
    }

    /** Reads the ranges of {@code toRead} to their ends into {@code day}, reporting progress after every poll. */
    private void read(Replay replay, ReplayPlan plan, List<TopicPartition> toRead, DayReportBuilder day) {
        long lowest = plan.from().minus(TIMESTAMP_MARGIN).toEpochMilli();
        long highest = plan.to().plus(TIMESTAMP_MARGIN).toEpochMilli();
        try (KafkaConsumer<ByteBuffer, ByteBuffer> consumer = orderLog.reader("report-replayer-" + replay.id())) {
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
