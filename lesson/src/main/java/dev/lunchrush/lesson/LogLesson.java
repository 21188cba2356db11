package dev.lunchrush.lesson;

import java.util.function.ToLongFunction;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.Topology;

/**
 * Act 4, the log: each reader reads the Kafka topic in its own consumer group, so the slow reader's backlog is its
 * group's lag, on disk, and the order service's heap stays flat where a feed would have grown.
 */
final class LogLesson extends SlowReaderLesson {

    @Override
    public boolean keepsAFeed() {
        return false;
    }

    @Override
    public String kitchenReader() {
        return "kafka:" + Topology.KITCHEN_GROUP;
    }

    @Override
    public long dashboardBacklog(Snapshot.@Nullable OrderServiceStats stats, ToLongFunction<String> unreadOf) {
        return unreadOf.applyAsLong("kafka:" + Topology.ANALYTICS_GROUP);
    }

    @Override
    public double memoryGrowth(RushMeasurement measured) {
        return measured.heapGrowth();
    }

    @Override
    String memoryNote() {
        return "order-service heap after GC; predicted: an unbounded feed";
    }
}
