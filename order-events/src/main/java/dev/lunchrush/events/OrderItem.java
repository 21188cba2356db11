package dev.lunchrush.events;

/** One line of an order: a dish of the kitchen's menu and how many portions of it. */
public record OrderItem(String dish, int quantity) {
}
