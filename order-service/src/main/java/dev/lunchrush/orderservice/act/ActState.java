package dev.lunchrush.orderservice.act;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;

/**
 * Where orders go now. {@code strategy} and {@code capacity} are the in-memory feed's settings;
 * they only matter in the act that has the feed ({@link Act#hasFeed()}) and keep their last values in the others.
 */
public record ActState(Act act, FeedStrategy strategy, int capacity) {

    public static final int DEFAULT_CAPACITY = 10_000;

    public static ActState initial() {
        return new ActState(Act.first(), FeedStrategy.UNBOUNDED, DEFAULT_CAPACITY);
    }
}
