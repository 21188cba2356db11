package dev.lunchrush.events;

import java.time.Instant;

/** The body of a {@code 201 Created} from {@code POST /orders}. */
public record OrderAccepted(String orderId, Instant placedAt, String kitchenId, String act, long sequence) {
}
