package dev.lunchrush.events;

import java.util.Arrays;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** The lesson's acts: where the order service writes each order. */
public enum Act {

    /** Act 1: one RabbitMQ work queue, both readers compete on it. */
    SHARED_QUEUE("shared-queue"),

    /** Act 2: a fanout exchange, one queue per reader. */
    QUEUE_PER_READER("queue-per-reader"),

    /** Act 3: the kitchen keeps its own queue, the analytics job pulls from an in-memory feed. */
    MEMORY_FEED("memory-feed"),

    /** Act 4: the Kafka topic, one consumer group per reader. */
    LOG("log");

    private final String id;

    Act(String id) {
        this.id = id;
    }

    @JsonValue
    public String id() {
        return id;
    }

    @JsonCreator
    public static Act fromId(String id) {
        return Arrays.stream(values())
                .filter(act -> act.id.equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "unknown act '" + id + "'; acts are " + ids()));
    }

    public static String ids() {
        return Arrays.stream(values()).map(Act::id).collect(Collectors.joining(", "));
    }
}
