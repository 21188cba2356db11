package dev.lunchrush.events;

import java.util.Arrays;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What the in-memory feed (act 3) does when the analytics job is slower than the orders. */
public enum FeedStrategy {

    /** Keep everything in memory, until the order service dies of it. */
    UNBOUNDED("unbounded"),

    /** Bounded: the producer waits for room, then gets 503. */
    BLOCK("block"),

    /** Bounded: the oldest event is discarded and counted. */
    DROP("drop"),

    /** Bounded: the producer is told no, HTTP 429 with Retry-After. */
    THROTTLE("throttle");

    private final String id;

    FeedStrategy(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static FeedStrategy fromId(String id) {
        return Arrays.stream(values())
                .filter(strategy -> strategy.id.equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown strategy '" + id + "'; strategies are " + ids()));
    }

    public static String ids() {
        return Arrays.stream(values()).map(FeedStrategy::id).collect(Collectors.joining(", "));
    }
}
