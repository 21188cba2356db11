package dev.lunchrush.architecture.planted.till;

import dev.lunchrush.architecture.planted.kitchen.Ticket;

/** The other half of the planted cycle: the till's receipt knows the kitchen's ticket. */
public record Receipt(Ticket ticket) {
}
