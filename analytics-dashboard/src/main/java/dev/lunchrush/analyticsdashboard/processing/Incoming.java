package dev.lunchrush.analyticsdashboard.processing;

import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderEvent;

/**
 * An order to process, with where it came from in the log (Kafka only): its offset is stored with
 * the aggregates it changes.
 */
public record Incoming(OrderEvent event, @Nullable TopicPartition partition, long offset) {

    public static Incoming of(OrderEvent event) {
        return new Incoming(event, null, -1);
    }
}
