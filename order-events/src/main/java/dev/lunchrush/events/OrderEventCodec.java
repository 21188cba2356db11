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

    /**
     * The largest event a reader accepts: twice the order service's largest order body (64 KB), so that
     * no order it writes comes near it. Bigger records are poison, dead-lettered unread.
     */
    public static final int MAX_EVENT_BYTES = 128 * 1024;

    private OrderEventCodec() {
    }

    public static byte[] encode(OrderEvent event) {
        return MAPPER.writeValueAsBytes(event);
    }

    /**
     * Reads an event and checks the fields every reader relies on.
     *
     * @throws OrderEventFormatException when the bytes are not JSON, not an order event or larger than
     *     {@link #MAX_EVENT_BYTES}
     */
    public static OrderEvent decode(byte[] bytes) {
        if (bytes.length > MAX_EVENT_BYTES) {
            throw new OrderEventFormatException("not an order event: " + bytes.length + " bytes, more than "
                    + MAX_EVENT_BYTES, null);
        }
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
