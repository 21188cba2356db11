package dev.lunchrush.backlogmonitor;

import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.lunchrush.events.Topology;

/**
 * What the monitor watches and how often.
 *
 * @param pollInterval how old Kafka's figures may be when they are read: a scrape, an API call or an open page
 *     that finds them older has Kafka asked again (each broker on its own thread, so a slow one does not hold
 *     the other back); nobody reading, nobody asked
 * @param brokerTimeout how long one call to a broker may take before the source counts as down
 * @param waitForPoll how long a reader (a scrape, an API call) waits for a poll under way before it is
 *     answered with the figures of the poll before
 * @param kafka the Kafka side
 * @param rabbitmq the RabbitMQ side
 */
@Validated
@ConfigurationProperties("lunchrush.backlog")
public record BacklogProperties(
        @DefaultValue("1s") @NotNull Duration pollInterval,
        @DefaultValue("3s") @NotNull Duration brokerTimeout,
        @DefaultValue("500ms") @NotNull Duration waitForPoll,
        @DefaultValue @Valid Kafka kafka,
        @DefaultValue @Valid Rabbitmq rabbitmq) {

    /**
     * @param topic the log whose readers are watched
     * @param groups groups always shown, even before they ever committed (then everything is unread)
     * @param discoverGroups also show every other consumer group with committed offsets on the topic
     * @param metadataRefresh how often what seldom changes is asked again: the topic's partitions, the list of
     *     consumer groups (a new group shows within this), the log start offsets (they move only when retention
     *     deletes a segment); committed and end offsets are asked at every poll
     */
    public record Kafka(
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic,
            @DefaultValue({Topology.KITCHEN_GROUP, Topology.ANALYTICS_GROUP}) List<String> groups,
            @DefaultValue("true") boolean discoverGroups,
            @DefaultValue("10s") @NotNull Duration metadataRefresh) {
    }

    /**
     * @param queues the queues of the acts; a queue that does not exist (yet) is left out
     * @param pollInterval how old RabbitMQ's figures may be when they are read; the management API itself
     *     refreshes queue figures every {@code collect_statistics_interval} (5 s by default), so asking more
     *     often returns the same figures
     */
    public record Rabbitmq(
            @DefaultValue({Topology.SHARED_QUEUE, Topology.KITCHEN_QUEUE, Topology.ANALYTICS_QUEUE,
                Topology.NOTIFICATION_QUEUE, Topology.DEAD_LETTER_QUEUE}) List<String> queues,
            @DefaultValue("5s") @NotNull Duration pollInterval) {
    }
}
