package dev.lunchrush.architecture.planted.kitchen;

import dev.lunchrush.architecture.planted.till.Receipt;

/** Half of a cycle planted for {@code ArchitectureTests}: the kitchen's ticket knows the till's receipt. */
public record Ticket(String orderId) {

    public Receipt receipt() {
        return new Receipt(this);
    }
}
