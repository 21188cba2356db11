package dev.lunchrush.kitchenscreen.screen;

/** An order that was placed (its number was skipped) but has not reached this screen. */
public record MissingOrder(String run, long sequence) {
}
