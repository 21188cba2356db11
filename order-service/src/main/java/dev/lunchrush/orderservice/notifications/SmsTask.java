package dev.lunchrush.orderservice.notifications;

/**
 * "Send this SMS": a task that must be done once, not a fact for every reader. Its id is the
 * order's id: one SMS per order.
 */
public record SmsTask(String taskId, String orderId, String customerId, String kitchenId, String text) {
}
