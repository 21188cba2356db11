package dev.lunchrush.reportreplayer.groups;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.lunchrush.reportreplayer.log.OrderLog;
import dev.lunchrush.reportreplayer.web.Problems;

/**
 * Moves a consumer group's committed offsets on the log to the first record at or after a time,
 * per partition (the log's end where no record is that recent). Like {@code kafka-consumer-groups},
 * it refuses, dry run included, while the group has members: their next commit would overwrite
 * the reset, and the offsets of a running reader are its own business.
 */
@Component
class GroupReset {

    private static final Logger log = LoggerFactory.getLogger(GroupReset.class);

    private final OrderLog orderLog;

    GroupReset(OrderLog orderLog) {
        this.orderLog = orderLog;
    }

    /** The reset to {@code toDatetime} (the group's id and the time's length: the controller checked them). */
    Result reset(String group, String toDatetime, boolean dryRun) {
        Instant to = instant(toDatetime);
        ConsumerGroupDescription description = describe(group);
        if (description != null && !description.members().isEmpty()) {
            var conflict = Problems.conflict("Group has active members",
                    "group " + group + " has " + description.members().size() + " active member(s) (state "
                            + description.groupState() + "): stop its readers, then reset");
            conflict.getBody().setProperty("activeMembers", description.members().size());
            throw conflict;
        }
        List<TopicPartition> partitions = orderLog.partitions();
        Map<TopicPartition, OffsetAndMetadata> current = OrderLog.await(
                orderLog.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata());
        Map<TopicPartition, ListOffsetsResultInfo> atTime = orderLog.offsetsForTime(partitions, to);
        Map<TopicPartition, Long> ends = orderLog.offsets(partitions, OffsetSpec.latest());

        List<PartitionReset> resets = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> targets = new HashMap<>();
        for (TopicPartition partition : partitions) {
            ListOffsetsResultInfo found = atTime.get(partition);
            long target = found == null ? ends.get(partition) : found.offset();
            OffsetAndMetadata now = current.get(partition);
            targets.put(partition, new OffsetAndMetadata(target));
            resets.add(new PartitionReset(partition.partition(), now == null ? null : now.offset(), target,
                    found == null ? null : Instant.ofEpochMilli(found.timestamp()), ends.get(partition)));
        }
        if (!dryRun) {
            try {
                OrderLog.await(orderLog.admin().alterConsumerGroupOffsets(group, targets).all());
            }
            catch (GroupNotEmptyException | UnknownMemberIdException ex) {
                // a member joined between the check and the change
                throw Problems.conflict("Group has active members", "group " + group + " got a member meanwhile: " + ex.getMessage());
            }
            log.info("group {} reset on {} to {}: {}", group, orderLog.topic(), to, resets);
        }
        return new Result(group, orderLog.topic(), to, dryRun, !dryRun, resets);
    }

    /** Null for a group Kafka does not know yet: resetting it sets where its first reader will start. */
    private @Nullable ConsumerGroupDescription describe(String group) {
        try {
            return OrderLog.await(orderLog.admin().describeConsumerGroups(Set.of(group)).all()).get(group);
        }
        catch (GroupIdNotFoundException ex) {
            return null;
        }
    }

    private static Instant instant(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        }
        catch (DateTimeParseException ex) {
            throw Problems.invalid("toDatetime", "'" + text + "' is not an ISO-8601 date-time with an offset, "
                    + "e.g. 2026-11-26T00:00:00Z or 2026-11-26T00:00:00+01:00");
        }
    }

    /**
     * @param applied whether the offsets were moved (false for a dry run)
     */
    record Result(String group, String topic, Instant toDatetime, boolean dryRun, boolean applied,
            List<PartitionReset> partitions) {
    }

    /**
     * @param currentOffset the group's committed offset now; null when it never committed on this partition
     * @param targetOffset where the reset puts it
     * @param targetTimestamp the timestamp of the record at the target; null when the target is the log's end
     * @param logEndOffset the partition's end offset
     */
    record PartitionReset(int partition, @Nullable Long currentOffset, long targetOffset,
            @Nullable Instant targetTimestamp, long logEndOffset) {
    }
}
