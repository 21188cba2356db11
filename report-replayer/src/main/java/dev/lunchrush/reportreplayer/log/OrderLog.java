package dev.lunchrush.reportreplayer.log;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;

import dev.lunchrush.reportreplayer.ReplayerProperties;

/**
 * The replayer's access to the log: one AdminClient for offsets, groups and topic settings, and
 * consumers of no group for reading. No group means no offsets committed and no rebalance: the
 * live readers never notice a replay.
 */
@Component
public class OrderLog implements DisposableBean {

    private static final long TIMEOUT_SECONDS = 10;

    private final KafkaProperties kafkaProperties;
    private final ReplayerProperties.Replay settings;
    private final Admin admin;

    OrderLog(KafkaProperties kafkaProperties, ReplayerProperties properties) {
        this.kafkaProperties = kafkaProperties;
        this.settings = properties.replay();
        Map<String, Object> config = new HashMap<>(kafkaProperties.buildAdminProperties());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "report-replayer-admin");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        this.admin = Admin.create(config);
    }

    public String topic() {
        return settings.topic();
    }

    public Admin admin() {
        return admin;
    }

    public List<TopicPartition> partitions() {
        return await(admin.describeTopics(Set.of(topic())).allTopicNames()).get(topic()).partitions().stream()
                .map(info -> new TopicPartition(topic(), info.partition()))
                .toList();
    }

    /** The topic's {@code retention.ms}; null when the log keeps everything. */
    public @Nullable Duration retention() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic());
        Config config = await(admin.describeConfigs(Set.of(resource)).all()).get(resource);
        String value = config.get(TopicConfig.RETENTION_MS_CONFIG) == null ? null
                : config.get(TopicConfig.RETENTION_MS_CONFIG).value();
        if (value == null || Long.parseLong(value) < 0) {
            return null;
        }
        return Duration.ofMillis(Long.parseLong(value));
    }

    public Map<TopicPartition, Long> offsets(List<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, spec));
        Map<TopicPartition, Long> offsets = new HashMap<>();
        Map<TopicPartition, ListOffsetsResultInfo> infos = await(admin.listOffsets(request).all());
        infos.forEach((partition, info) -> offsets.put(partition, info.offset()));
        return offsets;
    }

    /**
     * Per partition, the first offset whose record timestamp is at or after {@code time}, and that
     * record's timestamp; absent for a partition with no such record.
     */
    public Map<TopicPartition, ListOffsetsResultInfo> offsetsForTime(List<TopicPartition> partitions, Instant time) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(partition -> request.put(partition, OffsetSpec.forTimestamp(time.toEpochMilli())));
        Map<TopicPartition, ListOffsetsResultInfo> found = new HashMap<>();
        await(admin.listOffsets(request).all()).forEach((partition, info) -> {
            // -1: no record at or after the time on this partition
            if (info.offset() >= 0) {
                found.put(partition, info);
            }
        });
        return found;
    }

    /**
     * A consumer of no group, tuned for throughput; the caller assigns, seeks and closes it. Keys and values are
     * slices of the fetched buffers, not copies: a replay reads each value once, where it lies.
     */
    public KafkaConsumer<ByteBuffer, ByteBuffer> reader(String clientId) {
        Map<String, Object> config = new HashMap<>(kafkaProperties.buildConsumerProperties());
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // an import's batch is one transaction: an aborted one is not in the report
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteBufferDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteBufferDeserializer.class);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.maxPollRecords());
        config.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, settings.fetchMaxBytes());
        config.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, settings.maxPartitionFetchBytes());
        config.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, 4 * 1024 * 1024);
        return new KafkaConsumer<>(config);
    }

    /** Waits for an admin call, turning its failure into the cause's own exception where it is unchecked. */
    public static <T> T await(org.apache.kafka.common.KafkaFuture<T> future) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(ex.getCause());
        }
        catch (TimeoutException ex) {
            throw new LogUnavailableException("Kafka did not answer within " + TIMEOUT_SECONDS + " s", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LogUnavailableException("interrupted while waiting for Kafka", ex);
        }
    }

    @Override
    public void destroy() {
        admin.close(Duration.ofSeconds(2));
    }
}
