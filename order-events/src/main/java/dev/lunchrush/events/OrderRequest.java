package dev.lunchrush.events;

import java.util.List;

import org.jspecify.annotations.Nullable;

/** The body of {@code POST /orders}, as a client sends it. */
public record OrderRequest(
        String kitchenId,
        String customerId,
        List<OrderItem> items,
        String deliveryAddress,
        @Nullable String notes) {
}
