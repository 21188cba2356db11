package dev.lunchrush.kitchenscreen;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.lunchrush.events.Topology;

/**
 * How the screen's listeners receive ({@code lunchrush.rabbitmq.*}, {@code lunchrush.kafka.*}). The listener
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
     * @param listen whether the listener of the shared queue and the kitchen's own queue starts
     * @param prefetch unacknowledged deliveries the broker may hand the listener: room beyond the batch being
     *     gathered, so that on the shared queue the broker keeps giving this reader its turn
     * @param batchSize the most deliveries recorded in one journal write and acknowledged at once
     * @param batchMillis the longest a batch is gathered before it is recorded, in milliseconds
     */
    record Rabbitmq(
            @DefaultValue("true") boolean listen,
            @DefaultValue("100") @Min(1) int prefetch,
            @DefaultValue("25") @Min(1) int batchSize,
            @DefaultValue("50") @Min(1) long batchMillis) {
    }

    /**
     * @param listen whether the listener of the log starts
     * @param topic the log the screen reads in its own consumer group
     */
    record Kafka(
            @DefaultValue("true") boolean listen,
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic) {
    }
}
