package dev.lunchrush.analyticsdashboard;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.lunchrush.events.Topology;

/**
 * How the job's listeners receive ({@code lunchrush.rabbitmq.*}, {@code lunchrush.kafka.*}). The listener
 * annotations and the RabbitMQ container factory read these keys through placeholders (an annotation's attribute
 * can take nothing else), with the same defaults as here; this record declares them, checks them at start and
 * puts them in the configuration metadata ({@code SettingsMetadataTests} holds the two defaults together).
 *
 * @param rabbitmq the queues' listener
 * @param kafka the log's listener
 */
@Validated
@ConfigurationProperties("lunchrush")
record ReceivingProperties(@DefaultValue @Valid Rabbitmq rabbitmq, @DefaultValue @Valid Kafka kafka) {

    /**
     * @param listen whether the listener of the shared queue and the dashboard's own queue starts
     * @param prefetch unacknowledged deliveries the broker may hand the listener
     * @param batchSize the most deliveries processed and acknowledged as one batch
     */
    record Rabbitmq(
            @DefaultValue("true") boolean listen,
            @DefaultValue("100") @Min(1) int prefetch,
            @DefaultValue("50") @Min(1) int batchSize) {
    }

    /**
     * @param listen whether the listener of the log starts
     * @param topic the log the job reads in its own consumer group
     */
    record Kafka(
            @DefaultValue("true") boolean listen,
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic) {
    }
}
