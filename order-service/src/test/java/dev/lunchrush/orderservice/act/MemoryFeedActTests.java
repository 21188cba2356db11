package dev.lunchrush.orderservice.act;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.orderservice.feed.OrderFeed;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.orderservice.web.BlockingWork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

class MemoryFeedActTests {

    private final MemoryFeedAct memoryFeed = new MemoryFeedAct(mock(OrderFeed.class), mock(RabbitOrderPublisher.class),
            mock(BlockingWork.class));

    @Test
    void aSwitchIntoTheUnboundedFeedCollectsTheWholeHeap() {
        long before = fullCollections();
        memoryFeed.entered(new ActState(Act.MEMORY_FEED, FeedStrategy.UNBOUNDED, 10_000));
        assertThat(fullCollections()).isGreaterThan(before);
    }

    @Test
    void aSwitchIntoABoundedFeedCollectsNothing() {
        long before = fullCollections();
        memoryFeed.entered(new ActState(Act.MEMORY_FEED, FeedStrategy.DROP, 10_000));
        assertThat(fullCollections()).isEqualTo(before);
    }

    /** Collections of the old generation (the JVM counts an explicit one there), whichever collector runs the tests. */
    private static long fullCollections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(gc -> gc.getName().contains("Old") || gc.getName().contains("MarkSweep"))
                .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }
}
