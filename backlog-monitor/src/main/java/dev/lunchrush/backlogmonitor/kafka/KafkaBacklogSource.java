package dev.lunchrush.backlogmonitor.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 */
@Component
class KafkaBacklogSource implements BacklogSource, DisposableBean {

    static final String KIND = "kafka";

    private final BacklogProperties.Kafka settings;
    private final long timeoutMillis;
    private final Admin admin;
    private final RecordTimestamps timestamps;

    KafkaBacklogSource(KafkaProperties kafkaProperties, BacklogProperties properties) {
        this.settings = properties.kafka();
        this.timeoutMillis = properties.brokerTimeout().toMillis();
        Map<String, Object> adminConfig = new HashMap<>(kafkaProperties.buildAdminProperties());
        adminConfig.put(AdminClientConfig.CLIENT_ID_CONFIG, "backlog-monitor-admin");
        adminConfig.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeoutMillis);
        adminConfig.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeoutMillis);
        this.admin = Admin.create(adminConfig);
        this.timestamps = new RecordTimestamps(kafkaProperties.buildConsumerProperties(), properties.brokerTimeout());
    }

    @Override
    public String name() {
        return KIND;
    }

    @Override
    public List<ReaderBacklog> poll() throws Exception {
        String topic = settings.topic();
        List<TopicPartition> partitions = partitions(topic);
        if (partitions.isEmpty()) {
            return List.of();
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = committedOffsets(topic);
        Map<TopicPartition, Long> earliest = offsets(partitions, OffsetSpec.earliest());
        Map<TopicPartition, Long> latest = offsets(partitions, OffsetSpec.latest());

        List<ReaderBacklog> readers = new ArrayList<>();
        for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> group : committed.entrySet()) {
            long unread = 0;
            Instant oldest = null;
            List<Map<String, Object>> perPartition = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                OffsetAndMetadata offset = group.getValue().get(partition);
                long start = earliest.getOrDefault(partition, 0L);
                long end = latest.getOrDefault(partition, 0L);
                // no committed offset: the group would start from the log start (auto.offset.reset=earliest)
                long next = offset == null ? start : Math.max(offset.offset(), start);
                long behind = Math.max(0, end - next);
                Instant oldestHere = behind == 0 ? null : timestamps.at(partition, next);
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

    /** The configured groups (empty map when they never committed) and every group with offsets on the topic. */
    private Map<String, Map<TopicPartition, OffsetAndMetadata>> committedOffsets(String topic) throws Exception {
        Set<String> groups = new TreeSet<>(settings.groups());
        if (settings.discoverGroups()) {
            for (GroupListing listing : admin.listGroups(ListGroupsOptions.forConsumerGroups()).all()
                    .get(timeoutMillis, TimeUnit.MILLISECONDS)) {
                groups.add(listing.groupId());
            }
        }
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        groups.forEach(group -> specs.put(group, new ListConsumerGroupOffsetsSpec()));
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
