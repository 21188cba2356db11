package dev.lunchrush.events;

import org.apache.kafka.common.serialization.Serializer;

/** Kafka value serializer for {@link OrderEvent}, through {@link OrderEventCodec}. */
public class OrderEventSerializer implements Serializer<OrderEvent> {

    @Override
    public byte[] serialize(String topic, OrderEvent event) {
        return event == null ? null : OrderEventCodec.encode(event);
    }
}
