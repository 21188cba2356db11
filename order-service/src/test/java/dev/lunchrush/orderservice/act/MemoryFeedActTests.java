package dev.lunchrush.orderservice.feed;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.orderservice.act.ActChanged;
import dev.lunchrush.orderservice.act.ActState;

import static org.assertj.core.api.Assertions.assertThat;

class FeedBudgetBaselineTests {

    private final FeedBudgetBaseline baseline = new FeedBudgetBaseline();
    private final ActState log = new ActState(Act.LOG, FeedStrategy.UNBOUNDED, 10_000);

    @Test
    void aSwitchIntoTheUnboundedFeedCollectsTheWholeHeap() {
        long before = fullCollections();
        baseline.actChanged(new ActChanged(log, new ActState(Act.MEMORY_FEED, FeedStrategy.UNBOUNDED, 10_000)));
        assertThat(fullCollections()).isGreaterThan(before);
    }

    @Test
    void otherSwitchesCollectNothing() {
        long before = fullCollections();
        baseline.actChanged(new ActChanged(log, new ActState(Act.MEMORY_FEED, FeedStrategy.DROP, 10_000)));
        baseline.actChanged(new ActChanged(log, log));
        assertThat(fullCollections()).isEqualTo(before);
    }

    /** Collections of the old generation (the JVM counts an explicit one there), whichever collector runs the tests. */
    private static long fullCollections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(gc -> gc.getName().contains("Old") || gc.getName().contains("MarkSweep"))
                .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }
}
