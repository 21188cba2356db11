package dev.lunchrush.reportreplayer.replay;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

import org.springframework.stereotype.Component;

import dev.lunchrush.reportreplayer.log.OrderLog;
import dev.lunchrush.reportreplayer.web.Problems;

/**
 * Checks that the log can answer for a day and finds where to read. Refusals are 400s naming
 * {@code date}: a day that has not begun, or one the log no longer holds in full.
 *
 * <p>The end of each range is the log's end offset, not the first offset after the day's end:
 * records are in offset order but not always in timestamp order (a backfill of past days appended
 * after today's live orders), so a day's records may lie after later days' ones. Reading to the
 * end and keeping what was placed that day is right whatever the order.
 */
@Component
class ReplayPlanner {

    private final OrderLog log;
    private final Clock clock;

    ReplayPlanner(OrderLog log, Clock clock) {
        this.log = log;
        this.clock = clock;
    }

    ReplayPlan plan(LocalDate date, ZoneId zone) {
        Instant now = clock.instant();
        Instant from = date.atStartOfDay(zone).toInstant();
        Instant to = date.plusDays(1).atStartOfDay(zone).toInstant();
        if (from.isAfter(now)) {
            throw Problems.invalid("date", date + " in " + zone.getId() + " begins at " + from
                    + ", after now (" + now + "): a day in the future has nothing to replay");
        }
        Duration retention = log.retention();
        if (retention != null && from.isBefore(now.minus(retention))) {
            throw Problems.invalid("date", date + " in " + zone.getId() + " begins at " + from + ", before what the log's "
                    + "retention of " + retention.toDays() + " days still guarantees (" + now.minus(retention)
                    + "): the log no longer holds all of that day");
        }
        List<TopicPartition> partitions = log.partitions();
        Map<TopicPartition, Long> earliest = log.offsets(partitions, OffsetSpec.earliest());
        Map<TopicPartition, Long> latest = log.offsets(partitions, OffsetSpec.latest());
        List<TopicPartition> truncated = partitions.stream().filter(partition -> earliest.get(partition) > 0).toList();
        if (!truncated.isEmpty()) {
            // records were deleted from these partitions: the day is whole only if it begins after the first one held
            for (Map.Entry<TopicPartition, ListOffsetsResultInfo> first : log.offsetsForTime(truncated, Instant.EPOCH).entrySet()) {
                Instant firstHeld = Instant.ofEpochMilli(first.getValue().timestamp());
                if (from.isBefore(firstHeld)) {
                    throw Problems.invalid("date", date + " in " + zone.getId() + " begins at " + from + ", but partition "
                            + first.getKey().partition() + " of the log now begins at " + firstHeld
                            + " (older records were deleted): the log no longer holds all of that day");
                }
            }
        }
        Map<TopicPartition, ListOffsetsResultInfo> starts = log.offsetsForTime(partitions, from);
        Map<TopicPartition, ReplayPlan.Range> ranges = new LinkedHashMap<>();
        for (TopicPartition partition : partitions) {
            long end = latest.get(partition);
            ListOffsetsResultInfo start = starts.get(partition);
            ranges.put(partition, new ReplayPlan.Range(start == null ? end : start.offset(), end));
        }
        return new ReplayPlan(date, zone, from, to, ranges);
    }
}
