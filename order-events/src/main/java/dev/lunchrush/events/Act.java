package dev.lunchrush.events;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * The lesson's acts: where the order service writes each order, and so where each reader reads it. What every
 * module needs to know of an act is data here ({@link #kitchenReads()}, {@link #analyticsReads()},
 * {@link #hasFeed()}), so that no module outside the acts' registries chooses by comparing acts.
 */
public enum Act {

    /** Act 1: one RabbitMQ work queue, both readers compete on it. */
    SHARED_QUEUE("shared-queue", OrderSource.QUEUE, OrderSource.QUEUE),

    /** Act 2: a fanout exchange, one queue per reader. */
    QUEUE_PER_READER("queue-per-reader", OrderSource.QUEUE, OrderSource.QUEUE),

    /** Act 3: the kitchen keeps its own queue, the analytics job pulls from an in-memory feed. */
    MEMORY_FEED("memory-feed", OrderSource.QUEUE, OrderSource.FEED),

    /** Act 4: the Kafka topic, one consumer group per reader. */
    LOG("log", OrderSource.LOG, OrderSource.LOG);

    private final String id;
    private final OrderSource kitchen;
    private final OrderSource analytics;

    Act(String id, OrderSource kitchen, OrderSource analytics) {
        this.id = id;
        this.kitchen = kitchen;
        this.analytics = analytics;
    }

    @JsonValue
    public String id() {
        return id;
    }

    /** Where the kitchen screen reads in this act. */
    public OrderSource kitchenReads() {
        return kitchen;
    }

    /** Where the analytics dashboard reads in this act. */
    public OrderSource analyticsReads() {
        return analytics;
    }

    /** True in the act whose orders also go to the order service's in-memory feed (its strategy and capacity apply). */
    public boolean hasFeed() {
        return analytics == OrderSource.FEED;
    }

    /** The act the lesson starts with, and the order service's act before it was ever switched. */
    public static Act first() {
        return values()[0];
    }

    @JsonCreator
    public static Act fromId(String id) {
        return find(id).orElseThrow(() -> new IllegalArgumentException(
                "unknown act '" + id + "'; acts are " + ids()));
    }

    /** The act of that id, if there is one. */
    public static Optional<Act> find(String id) {
        return Arrays.stream(values()).filter(act -> act.id.equals(id)).findFirst();
    }

    public static String ids() {
        return Arrays.stream(values()).map(Act::id).collect(Collectors.joining(", "));
    }
}
