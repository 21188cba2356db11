package dev.lunchrush.orderservice.feed;

/**
 * The feed's accounting. Every event it accepted is in exactly one place:
 * {@code accepted = delivered + dropped + buffered}. {@code rejected} counts orders it refused
 * (throttle's 429, block's 503 after the wait); those never entered it.
 */
public record FeedFigures(long buffered, long bufferedBytes, long accepted, long delivered, long dropped, long rejected) {
}
