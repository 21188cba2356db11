package dev.lunchrush.support.topology;

import java.time.Duration;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.jspecify.annotations.Nullable;

import org.springframework.kafka.config.TopicBuilder;

import dev.lunchrush.events.Topology;

/**
 * The log's topics as every service declares them (the order service, and each reader so that start
 * order does not matter): one definition, so the declarations cannot drift apart.
 */
public final class OrderTopics {

    private OrderTopics() {
    }

    /** {@code orders}; {@code replicationFactor} null takes the broker's default. */
    public static NewTopic orders(@Nullable Short replicationFactor) {
        return withReplicas(TopicBuilder.name(Topology.ORDERS_TOPIC)
                .partitions(Topology.ORDERS_PARTITIONS)
                .config(TopicConfig.RETENTION_MS_CONFIG,
                        String.valueOf(Duration.ofDays(Topology.ORDERS_RETENTION_DAYS).toMillis()))
                // record timestamps are the orders' placedAt: the replay seeks by them
                .config(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "CreateTime"), replicationFactor);
    }

    /** {@code orders}, the broker's default replication. */
    public static NewTopic orders() {
        return orders(null);
    }

    /** {@code orders.DLT}, as many partitions as {@code orders}: a record goes to its own partition's number. */
    public static NewTopic deadLetters(@Nullable Short replicationFactor) {
        return withReplicas(TopicBuilder.name(Topology.ORDERS_DEAD_LETTER_TOPIC).partitions(Topology.ORDERS_PARTITIONS),
                replicationFactor);
    }

    /** {@code orders.DLT}, the broker's default replication. */
    public static NewTopic deadLetters() {
        return deadLetters(null);
    }

    private static NewTopic withReplicas(TopicBuilder builder, @Nullable Short replicationFactor) {
        if (replicationFactor != null) {
            builder.replicas(replicationFactor);
        }
        return builder.build();
    }
}
