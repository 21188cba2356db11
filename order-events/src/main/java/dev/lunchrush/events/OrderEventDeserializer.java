package dev.lunchrush.events;

import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka value deserializer for {@link OrderEvent}. It throws on poison; wrap it in Spring Kafka's
 * {@code ErrorHandlingDeserializer} so that a bad record is dead-lettered instead of stalling a reader.
 */
public class OrderEventDeserializer implements Deserializer<OrderEvent> {

    @Override
    public OrderEvent deserialize(String topic, byte[] data) {
        return data == null ? null : OrderEventCodec.decode(data);
    }
}
