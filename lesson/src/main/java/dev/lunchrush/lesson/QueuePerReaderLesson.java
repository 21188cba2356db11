package dev.lunchrush.lesson;

import java.util.List;
import java.util.function.ToLongFunction;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.Topology;

/**
 * Act 2, a fanout with one queue per reader: every reader gets every order, the slow reader's backlog piles up in
 * its queue in the broker while the kitchen's stays empty, and a reader added later gets no history. Its closing
 * table is the surplus, each queue's backlog, that empty history and the catch-up.
 */
final class QueuePerReaderLesson implements ActLesson {

    @Override
    public boolean keepsAFeed() {
        return false;
    }

    @Override
    public boolean readersCompete() {
        return false;
    }

    @Override
    public boolean everyOrderArrived(long placed, long kitchenGot, long dashboardGot) {
        return kitchenGot >= placed && dashboardGot >= placed;
    }

    @Override
    public String kitchenReader() {
        return "rabbitmq:" + Topology.KITCHEN_QUEUE;
    }

    @Override
    public long dashboardBacklog(Snapshot.@Nullable OrderServiceStats stats, ToLongFunction<String> unreadOf) {
        return unreadOf.applyAsLong("rabbitmq:" + Topology.ANALYTICS_QUEUE);
    }

    @Override
    public double memoryGrowth(RushMeasurement measured) {
        return measured.heapGrowth();
    }

    @Override
    public List<ClosingLine> closingLines(RushMeasurement measured, @Nullable Death death) {
        LessonArithmetic predicted = measured.predicted();
        return List.of(measured.surplusLine(),
                new ClosingLine("backlog at the end of the rush", "events", measured.backlogAtEndOfPeak(),
                        predicted.backlogAtEndOfPeak(), "the dashboard's queue, in RabbitMQ" + measured.startedBehind()),
                new ClosingLine("kitchen's queue, end of the rush", "events", measured.kitchenBacklogAtEndOfPeak(), 0,
                        "the fast reader keeps up"),
                new ClosingLine("history a reader added now gets", "events", Double.NaN, 0,
                        "a queue bound now gets only later orders: none of the %,.0f placed".formatted(
                                measured.placed(measured.series().last()))),
                measured.catchUpLine());
    }
}
