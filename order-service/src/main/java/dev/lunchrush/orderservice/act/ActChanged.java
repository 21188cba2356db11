package dev.lunchrush.orderservice.act;

/** Published after the act was switched (and persisted). */
public record ActChanged(ActState previous, ActState current) {
}
