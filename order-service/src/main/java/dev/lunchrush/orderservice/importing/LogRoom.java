package dev.lunchrush.orderservice.importing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.publishing.KafkaTopology;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/**
 * The room left on the disks of the log, for a client about to import many orders ({@code ./demo backfill} asks
 * before it writes): each log directory that holds a replica of the orders topic, with its broker, the bytes still
 * usable on its disk and the disk's size, as the brokers report them (Kafka's DescribeLogDirs). An admin client of its
 * own per question, closed after it: the question is asked once per backfill.
 */
@Component
class LogRoom {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * A log directory holding a replica of the topic.
     *
     * @param partitions how many of the topic's partitions it holds a replica of
     */
    record LogDir(int broker, String path, long usableBytes, long totalBytes, int partitions) {
    }

    private final KafkaAdmin admin;
    private final KafkaTopology topics;

    LogRoom(KafkaAdmin admin, KafkaTopology topics) {
        this.admin = admin;
        this.topics = topics;
    }

    /** The log directories of the orders topic, by broker and path; a 503 problem when Kafka does not say. */
    List<LogDir> logDirs() {
        if (!topics.ensureTopics()) {
            throw unavailable("the topic " + Topology.ORDERS_TOPIC + " could not be created");
        }
        Map<String, Object> config = new HashMap<>(admin.getConfigurationProperties());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "order-service-log-room");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        try (Admin client = Admin.create(config)) {
            TopicDescription topic = client.describeTopics(List.of(Topology.ORDERS_TOPIC)).allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(Topology.ORDERS_TOPIC);
            Set<Integer> brokers = new TreeSet<>();
            for (TopicPartitionInfo partition : topic.partitions()) {
                partition.replicas().forEach(replica -> brokers.add(replica.id()));
            }
            Map<Integer, Map<String, LogDirDescription>> described = client.describeLogDirs(brokers).allDescriptions()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<LogDir> dirs = new ArrayList<>();
            described.forEach((broker, byPath) -> byPath.forEach((path, dir) -> {
                int partitions = (int) dir.replicaInfos().keySet().stream()
                        .filter(partition -> partition.topic().equals(Topology.ORDERS_TOPIC)).count();
                if (dir.error() == null && partitions > 0 && dir.usableBytes().isPresent()) {
                    dirs.add(new LogDir(broker, path, dir.usableBytes().getAsLong(), dir.totalBytes().orElse(-1),
                            partitions));
                }
            }));
            dirs.sort(Comparator.comparingInt(LogDir::broker).thenComparing(LogDir::path));
            return dirs;
        }
        catch (ExecutionException ex) {
            throw unavailable(ex.getCause() == null ? ex.toString() : ex.getCause().getMessage());
        }
        catch (TimeoutException ex) {
            throw unavailable("no answer within " + TIMEOUT.toSeconds() + " s");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw unavailable("interrupted");
        }
    }

    private static ProblemException unavailable(String why) {
        return new ProblemException(ProblemType.UNAVAILABLE, "Kafka did not tell the room left on its log's disks: " + why);
    }
}
