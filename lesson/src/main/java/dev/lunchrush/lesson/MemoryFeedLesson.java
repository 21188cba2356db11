package dev.lunchrush.lesson;

import java.util.function.ToLongFunction;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.Topology;

/**
 * Act 3, the in-memory feed: the kitchen keeps its own queue, the analytics job pulls from a feed in the order
 * service's memory. The feed's bytes are the memory that grows, its unread events are the dashboard's backlog, and
 * an unbounded feed dies with the service when it fills its budget.
 */
final class MemoryFeedLesson extends SlowReaderLesson {

    @Override
    public boolean keepsAFeed() {
        return true;
    }

    @Override
    public String kitchenReader() {
        return "rabbitmq:" + Topology.KITCHEN_QUEUE;
    }

    @Override
    public long dashboardBacklog(Snapshot.@Nullable OrderServiceStats stats, ToLongFunction<String> unreadOf) {
        return stats == null ? -1 : stats.feedBuffered();
    }

    @Override
    public double memoryGrowth(RushMeasurement measured) {
        return measured.feedGrowth();
    }

    @Override
    String memoryNote() {
        return "the feed's bytes";
    }

    /**
     * The prediction is the budget over the feed's growth as this rush measured it early in the service's life (from
     * the end of the warm-up, over the first half of its life when it died): the death is judged against the heap's
     * arithmetic at the rate the service really took, which a generator that did not hold the asked rate would
     * otherwise distort; the note gives the asked rates' figure. Without a measured growth, the asked rates'.
     */
    @Override
    ClosingLine fillLine(RushMeasurement measured, @Nullable Death death) {
        double growth = measured.feedGrowth();
        if (Double.isNaN(growth) || growth <= 0) {
            return super.fillLine(measured, death);
        }
        LessonArithmetic predicted = measured.predicted();
        double fill = death == null ? Double.NaN : death.atSeconds();
        double atMeasured = predicted.secondsToFillBudget(measured.warmUp(), measured.feedGrownByWarmUp(), growth);
        return new ClosingLine("time to fill the budget", "s", fill, atMeasured, outcome(predicted, death)
                + " over the growth measured to %.1f s (%s s at the asked rates)".formatted(measured.ratesEnd(),
                        Figures.number(predicted.secondsToFillBudget())));
    }
}
