package dev.lunchrush.support.receiving;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import dev.lunchrush.events.Topology;

/**
 * How a reader's listeners receive ({@code lunchrush.rabbitmq.*}, {@code lunchrush.kafka.*}), the same keys in
 * every reader. The defaults are here and nowhere else: the listener container factories and the listeners read
 * this record, never a placeholder with a default of its own. A reader whose batches differ says so in its own
 * {@code application.yml}.
 *
 * @param rabbitmq the queues' listener
 * @param kafka the log's listener
 */
@Validated
@ConfigurationProperties("lunchrush")
public record ReceivingProperties(@DefaultValue @Valid Rabbitmq rabbitmq, @DefaultValue @Valid Kafka kafka) {

    /**
     * @param listen whether the listener of the shared queue and the reader's own queue starts
     * @param prefetch unacknowledged deliveries the broker may hand the listener: room beyond the batch being
     *     gathered, so that on the shared queue the broker keeps giving this reader its turn
     * @param batchSize the most deliveries handled (recorded, or processed) as one batch and acknowledged at once
     * @param batchMillis the longest the kitchen screen gathers a batch before it records it, in milliseconds (the
     *     dashboard gathers by its own timing)
     */
    public record Rabbitmq(
            @DefaultValue("true") boolean listen,
            @DefaultValue("100") @Min(1) int prefetch,
            @DefaultValue("25") @Min(1) int batchSize,
            @DefaultValue("50") @Min(1) long batchMillis) {
    }

    /**
     * @param listen whether the listener of the log starts
     * @param topic the log the reader reads in its own consumer group
     */
    public record Kafka(
            @DefaultValue("true") boolean listen,
            @DefaultValue(Topology.ORDERS_TOPIC) @NotBlank String topic) {
    }
}
