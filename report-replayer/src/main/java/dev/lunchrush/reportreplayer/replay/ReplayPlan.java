package dev.lunchrush.reportreplayer.replay;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

/**
 * What a replay will read: per partition, from the first offset at or after the day's start up to
 * the log's end offset when the replay started.
 */
record ReplayPlan(LocalDate date, ZoneId zone, Instant from, Instant to, Map<TopicPartition, Range> ranges) {

    record Range(long start, long end) {

        long size() {
            return Math.max(0, end - start);
        }
    }

    long expected() {
        return ranges.values().stream().mapToLong(Range::size).sum();
    }
}
