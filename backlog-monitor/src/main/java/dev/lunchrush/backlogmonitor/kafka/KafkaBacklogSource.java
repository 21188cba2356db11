package dev.lunchrush.backlogmonitor.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;

import dev.lunchrush.backlogmonitor.BacklogProperties;
import dev.lunchrush.backlogmonitor.readers.BacklogSource;
import dev.lunchrush.backlogmonitor.readers.ReaderBacklog;

/**
 * The consumer groups of the log, seen from outside: committed offsets and end offsets from the
 * AdminClient, and the timestamp of the record at each committed offset read by a consumer of no
 * group. Nothing here joins a group or commits, so watching never changes what is watched.
 *
 * <p>Per poll: the committed offsets of every group (one request), the end offsets (one request) and one
 * fetch for the records at the committed offsets that are not known yet, every partition together. What
 * seldom changes, the topic's partitions, the list of groups and the log start offsets, is asked again every
 * {@code metadata-refresh}.
 */
@Component
class KafkaBacklogSource implements BacklogSource, DisposableBean {

    static final String KIND = "kafka";

    private final BacklogProperties.Kafka settings;
    private final long timeoutMillis;
    private final Admin admin;
    private final RecordTimestamps timestamps;
    private final Duration pollInterval;
    private final long metadataRefreshNanos;
    private List<TopicPartition> partitions = List.of();
    private Set<String> groups = Set.of();
    private Map<TopicPartition, Long> earliest = Map.of();
    private long metadataAt;
    private boolean metadataKnown;

    KafkaBacklogSource(KafkaProperties kafkaProperties, BacklogProperties properties) {
        this.settings = properties.kafka();
        this.timeoutMillis = properties.brokerTimeout().toMillis();
        Map<String, Object> adminConfig = new HashMap<>(kafkaProperties.buildAdminProperties());
        adminConfig.put(AdminClientConfig.CLIENT_ID_CONFIG, "backlog-monitor-admin");
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeoutMillis);
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeoutMillis);
        this.admin = Admin.create(adminConfig);
        this.timestamps = new RecordTimestamps(kafkaProperties.buildConsumerProperties(), properties.brokerTimeout());
        this.pollInterval = properties.pollInterval();
        this.metadataRefreshNanos = settings.metadataRefresh().toNanos();
    }

    @Override
    public Duration pollInterval() {
        return pollInterval;
    }

    @Override
    public String name() {
        return KIND;
    }

    @Override
    public List<ReaderBacklog> poll() throws Exception {
        String topic = settings.topic();
        refreshMetadata(topic);
        if (partitions.isEmpty()) {
            return List.of();
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = committedOffsets(topic);
        Map<TopicPartition, Long> latest = offsets(partitions, OffsetSpec.latest());

        // the oldest unread record of every group and partition: its offset first, then all their timestamps at once
        Map<TopicPartition, NavigableSet<Long>> unreadFrom = new HashMap<>();
        for (Map<TopicPartition, OffsetAndMetadata> offsets : committed.values()) {
            for (TopicPartition partition : partitions) {
                long next = next(offsets.get(partition), partition);
                if (latest.getOrDefault(partition, 0L) > next) {
                    unreadFrom.computeIfAbsent(partition, p -> new TreeSet<>()).add(next);
                }
            }
        }
        Map<TopicPartition, Map<Long, RecordTimestamps.FirstRecord>> firstRecords = unreadFrom.isEmpty() ? Map.of()
                : timestamps.at(unreadFrom, latest);

        List<ReaderBacklog> readers = new ArrayList<>();
        for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> group : committed.entrySet()) {
            long unread = 0;
            Instant oldest = null;
            List<Map<String, Object>> perPartition = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = group.getValue().get(partition);
                long start = earliest.getOrDefault(partition, 0L);
                long end = latest.getOrDefault(partition, 0L);
                long next = next(offset, partition);
                long behind = Math.max(0, end - next);
                RecordTimestamps.FirstRecord first = behind == 0 ? null : firstRecords.getOrDefault(partition, Map.of()).get(next);
                Instant oldestHere = first == null ? null : first.timestamp();
                if (first != null) {
                    // from the first unread record on: the transaction markers before it (all of them, for a reader
                    // that read every record of an import) are no events
                    behind = Math.max(0, end - first.offset());
                }
                unread += behind;
                if (oldestHere != null && (oldest == null || oldestHere.isBefore(oldest))) {
                    oldest = oldestHere;
                }
                Map<String, Object> figures = new LinkedHashMap<>();
                figures.put("partition", partition.partition());
                figures.put("committed", offset == null ? null : offset.offset());
                figures.put("logStart", start);
                figures.put("end", end);
                figures.put("unread", behind);
                figures.put("oldestUnreadAt", oldestHere == null ? null : oldestHere.toString());
                perPartition.add(figures);
            }
            readers.add(new ReaderBacklog(KIND + ":" + group.getKey(), KIND, unread, oldest,
                    Map.of("topic", topic, "partitions", perPartition)));
        }
        return readers;
    }

    /**
     * The group's next offset to read: the committed one, or the log start where it has none (it would start
     * there, auto.offset.reset=earliest) or where it committed below it (retention deleted those records).
     */
    private long next(OffsetAndMetadata offset, TopicPartition partition) {
        long start = earliest.getOrDefault(partition, 0L);
        return offset == null ? start : Math.max(offset.offset(), start);
    }

    /** The topic's partitions, the groups and the log start offsets, asked again every metadata-refresh. */
    private void refreshMetadata(String topic) throws Exception {
        long now = System.nanoTime();
        if (metadataKnown && now - metadataAt < metadataRefreshNanos) {
            return;
        }
        List<TopicPartition> found = partitions(topic);
        Set<String> listed = new TreeSet<>(settings.groups());
        if (settings.discoverGroups()) {
            for (GroupListing listing : admin.listGroups(ListGroupsOptions.forConsumerGroups()).all()
                    .get(timeoutMillis, TimeUnit.MILLISECONDS)) {
                listed.add(listing.groupId());
            }
        }
        Map<TopicPartition, Long> start = found.isEmpty() ? Map.of() : offsets(found, OffsetSpec.earliest());
        partitions = found;
        groups = listed;
        earliest = start;
        // a log that is not there yet is asked for again at the next poll
        metadataKnown = !found.isEmpty();
        metadataAt = now;
    }

    private List<TopicPartition> partitions(String topic) throws Exception {
        try {
            TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames()
                    .get(timeoutMillis, TimeUnit.MILLISECONDS).get(topic);
            return description.partitions().stream()
                    .map(info -> new TopicPartition(topic, info.partition()))
                    .toList();
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof UnknownTopicOrPartitionException) {
                // Kafka answers, the log is not there yet: no readers, but the source is up
                return List.of();
            }
            throw ex;
        }
    }

    /**
     * The committed offsets on the topic's partitions of the configured groups (empty map when they never
     * committed) and of every listed group with offsets there, in one request.
     */
    private Map<String, Map<TopicPartition, OffsetAndMetadata>> committedOffsets(String topic) throws Exception {
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.forEach(group -> specs.put(group, new ListConsumerGroupOffsetsSpec().topicPartitions(partitions)));
        Map<String, Map<TopicPartition, OffsetAndMetadata>> all = specs.isEmpty() ? Map.of()
                : admin.listConsumerGroupOffsets(specs).all().get(timeoutMillis, TimeUnit.MILLISECONDS);
        Map<String, Map<TopicPartition, OffsetAndMetadata>> result = new LinkedHashMap<>();
        for (String group : groups) {
            Map<TopicPartition, OffsetAndMetadata> onTopic = new HashMap<>();
            all.getOrDefault(group, Map.of()).forEach((partition, offset) -> {
                if (offset != null && partition.topic().equals(topic)) {
                    onTopic.put(partition, offset);
                }
            });
            // discovered groups that read other topics only are not readers of this log
            if (!onTopic.isEmpty() || settings.groups().contains(group)) {
                result.put(group, onTopic);
            }
        }
        return result;
    }

    private Map<TopicPartition, Long> offsets(List<TopicPartition> partitions, OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        Map<TopicPartition, ListOffsetsResultInfo> infos = admin.listOffsets(request).all()
                .get(timeoutMillis, TimeUnit.MILLISECONDS);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        infos.forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    @Override
    public void destroy() {
        admin.close(Duration.ofSeconds(2));
        timestamps.close();
    }
}
