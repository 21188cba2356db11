package dev.lunchrush.events;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * An order as the order service accepted it: the message on every queue and the record in the log.
 *
 * @param orderId the order's id, unique
 * @param placedAt when the order service accepted it (for imported past orders: when it was placed)
 * @param kitchenId the kitchen that cooks it (also the Kafka record key)
 * @param customerId who ordered
 * @param items what was ordered, at least one line
 * @param deliveryAddress where it goes
 * @param notes free text from the customer, possibly empty
 * @param origin {@link #ORIGIN_LIVE} for an order placed through {@code POST /orders},
 *     {@link #ORIGIN_IMPORT} for a past order put in by the admin import
 * @param run the order service run that accepted a live order, so that readers can tell a restart
 *     from missing orders
 * @param sequence the order's number within its run, 1, 2, 3, …; 0 for imported orders
 */
public record OrderEvent(
        String orderId,
        Instant placedAt,
        String kitchenId,
        String customerId,
        List<OrderItem> items,
        String deliveryAddress,
        @Nullable String notes,
        String origin,
        String run,
        long sequence) {

    public static final String ORIGIN_LIVE = "live";
    public static final String ORIGIN_IMPORT = "import";

    public OrderEvent {
        items = List.copyOf(items);
    }

    /** Portions in this order: the sum of its items' quantities. */
    public int portions() {
        return items.stream().mapToInt(OrderItem::quantity).sum();
    }

    public boolean isLive() {
        return ORIGIN_LIVE.equals(origin);
    }
}
