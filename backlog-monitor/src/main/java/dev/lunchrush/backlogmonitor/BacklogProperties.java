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
 * @param pollInterval how often each broker is asked (each broker on its own thread, so a slow one
 *     does not hold the other back)
 * @param brokerTimeout how long one call to a broker may take before the source counts as down
 * @param kafka the Kafka side
 * @param rabbitmq the RabbitMQ side
 */
@Validated
@ConfigurationProperties("lunchrush.backlog")
public record BacklogProperties(
        @DefaultValue("1s") @NotNull Duration pollInterval,
        @DefaultValue("3s") @NotNull Duration brokerTimeout,
        @DefaultValue @Valid Kafka kafka,
        @DefaultValue @Valid Rabbitmq rabbitmq) {

    /**
     * @param topic the log whose readers are watched
     * @param groups groups always shown, even before they ever committed (then everything is unread)
     * @param discoverGroups also show every other consumer group with committed offsets on the topic
     */
    public record Kafka(
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic,
            @DefaultValue({Topology.KITCHEN_GROUP, Topology.ANALYTICS_GROUP}) List<String> groups,
            @DefaultValue("true") boolean discoverGroups) {
    }

    /** @param queues the queues of the acts; a queue that does not exist (yet) is left out */
    public record Rabbitmq(
            @DefaultValue({Topology.SHARED_QUEUE, Topology.KITCHEN_QUEUE, Topology.ANALYTICS_QUEUE,
                Topology.NOTIFICATION_QUEUE, Topology.DEAD_LETTER_QUEUE}) List<String> queues) {
    }
}
