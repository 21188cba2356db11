package dev.lunchrush.orderservice.notifications;

import org.jspecify.annotations.Nullable;

/**
 * "Send this SMS": a task that must be done once, not a fact for every reader. Its id is the
 * order's id: one SMS per order. {@code placedAtMillis} is when the order was placed (epoch
 * milliseconds: a number is read at a fraction of an ISO-8601 instant's cost, once per task), so
 * that a worker can tell a task older than what the store remembers of done tasks; null in a task
 * that does not say.
 */
public record SmsTask(String taskId, String orderId, String customerId, String kitchenId, String text,
        @Nullable Long placedAtMillis) {
}
