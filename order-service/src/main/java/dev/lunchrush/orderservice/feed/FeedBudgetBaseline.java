package dev.lunchrush.orderservice.feed;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.orderservice.act.ActChanged;

/**
 * A switch into act 3 with an {@code unbounded} feed collects the whole heap once (a full collection, some tens
 * of milliseconds on this service's heap), so that the heap figures of {@code /api/stats} (used after the last
 * collection) say what is alive as the act begins. The rush takes the feed's budget from them: the heap's
 * room over what is alive. Without it, "after the last collection" of the old generation can be a full
 * collection of minutes ago, with an earlier rush's garbage in it, and the budget comes out a fifth short.
 */
@Component
class FeedBudgetBaseline {

    private static final Logger log = LoggerFactory.getLogger(FeedBudgetBaseline.class);

    /** Called on the switching thread (not an event loop), after the act is saved. */
    @EventListener
    void actChanged(ActChanged change) {
        if (change.current().act() != Act.MEMORY_FEED || change.current().strategy() != FeedStrategy.UNBOUNDED) {
            return;
        }
        long started = System.nanoTime();
        // the one explicit collection of the service: what the budget is measured against
        System.gc();
        log.info("heap collected for the feed's budget in {} ms", (System.nanoTime() - started) / 1_000_000);
    }
}
