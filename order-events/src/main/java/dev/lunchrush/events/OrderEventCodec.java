package dev.lunchrush.events;

import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON form of {@link OrderEvent}: UTF-8, ISO-8601 instants. Readers that meet bytes this
 * codec cannot read get an {@link OrderEventFormatException} and dead-letter the record.
 */
public final class OrderEventCodec {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private OrderEventCodec() {
    }

    public static byte[] encode(OrderEvent event) {
        return MAPPER.writeValueAsBytes(event);
    }

    /**
     * Reads an event and checks the fields every reader relies on.
     *
     * @throws OrderEventFormatException when the bytes are not JSON or not an order event
     */
    public static OrderEvent decode(byte[] bytes) {
        OrderEvent event;
        try {
            event = MAPPER.readValue(bytes, OrderEvent.class);
        }
        catch (JacksonException ex) {
            throw new OrderEventFormatException("not an order event: " + ex.getOriginalMessage(), ex);
        }
        if (event == null) {
            throw new OrderEventFormatException("not an order event: empty", null);
        }
        requireText(event.orderId(), "orderId");
        requireText(event.kitchenId(), "kitchenId");
        if (event.placedAt() == null) {
            throw new OrderEventFormatException("not an order event: placedAt is missing", null);
        }
        List<OrderItem> items = event.items();
        if (items == null || items.isEmpty()) {
            throw new OrderEventFormatException("not an order event: no items", null);
        }
        for (OrderItem item : items) {
            if (item == null || item.dish() == null || item.quantity() <= 0) {
                throw new OrderEventFormatException("not an order event: bad item " + item, null);
            }
        }
        return event;
    }

    private static void requireText(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new OrderEventFormatException("not an order event: " + field + " is missing", null);
        }
    }
}
