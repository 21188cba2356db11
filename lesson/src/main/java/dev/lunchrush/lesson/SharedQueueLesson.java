package dev.lunchrush.lesson;

import java.util.List;
import java.util.function.ToLongFunction;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.Topology;

/**
 * Act 1, one shared work queue: the two readers compete for each order, so each gets about half, and the kitchen
 * screen sees the other half as gaps in the order numbers. Its closing table is each reader's share against half
 * and what the screen counts as missing; the slow reader's arithmetic means nothing here.
 */
final class SharedQueueLesson implements ActLesson {

    private static final String QUEUE = "rabbitmq:" + Topology.SHARED_QUEUE;

    @Override
    public boolean keepsAFeed() {
        return false;
    }

    @Override
    public boolean readersCompete() {
        return true;
    }

    @Override
    public boolean everyOrderArrived(long placed, long kitchenGot, long dashboardGot) {
        return kitchenGot + dashboardGot >= placed;
    }

    @Override
    public String kitchenReader() {
        return QUEUE;
    }

    @Override
    public long dashboardBacklog(Snapshot.@Nullable OrderServiceStats stats, ToLongFunction<String> unreadOf) {
        return unreadOf.applyAsLong(QUEUE);
    }

    @Override
    public double memoryGrowth(RushMeasurement measured) {
        return measured.heapGrowth();
    }

    @Override
    public List<ClosingLine> closingLines(RushMeasurement measured, @Nullable Death death) {
        double placed = measured.placed(measured.series().last());
        return List.of(
                new ClosingLine("kitchen screen's share", "%", measured.share(measured::kitchenGot), 50,
                        "of the %,.0f orders placed; the rest went to the dashboard".formatted(placed)),
                new ClosingLine("analytics dashboard's share", "%", measured.share(measured::read), 50,
                        "both compete for each message of one queue"),
                new ClosingLine("missing on the kitchen screen", "orders", measured.kitchenMissing(), placed / 2,
                        "as the screen counts them: gaps in the order numbers"));
    }
}
