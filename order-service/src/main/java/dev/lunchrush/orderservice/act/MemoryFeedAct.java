package dev.lunchrush.orderservice.act;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.feed.OrderFeed;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.orderservice.web.BlockingWork;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Act 3: each order to the kitchen's own queue and to the in-memory feed that the analytics job pulls, the whole
 * round trip here. Room in the feed first: an order that the feed refuses (or makes wait) does not reach the
 * kitchen either, which is how "the kitchen is slowed too" shows under {@code block}. The event enters the feed
 * once the kitchen's queue took it, so that an order the queue refuses (503) is not counted by the job either;
 * while RabbitMQ's answer is unknown, the feed follows its real answer when it comes.
 *
 * <p>Entering the act with an {@code unbounded} feed collects the whole heap once, so that the heap figures of
 * {@code /api/stats} (used after the last collection) say what is alive as the act begins: the rush takes the
 * feed's budget from them, the heap's room over what is alive. Without it, "after the last collection" of the old
 * generation can be a collection of long ago, with an earlier rush's garbage in it, and the budget comes out short.
 */
@Component
class MemoryFeedAct implements ActOutput {

    private static final Logger log = LoggerFactory.getLogger(MemoryFeedAct.class);

    private final OrderFeed feed;
    private final RabbitOrderPublisher rabbit;
    private final BlockingWork blocking;

    MemoryFeedAct(OrderFeed feed, RabbitOrderPublisher rabbit, BlockingWork blocking) {
        this.feed = feed;
        this.rabbit = rabbit;
        this.blocking = blocking;
    }

    @Override
    public CompletableFuture<WrittenOrder> write(ActState state, Supplier<OrderEvent> events) {
        // only block waits for room, on a thread that may wait
        if (state.strategy() == FeedStrategy.BLOCK) {
            return blocking.supply(() -> feed.reserve(state.strategy(), state.capacity(), events))
                    .thenCompose(this::toKitchen);
        }
        return toKitchen(feed.reserve(state.strategy(), state.capacity(), events));
    }

    /** The reserved order to the kitchen's queue; into the feed once RabbitMQ confirmed it, else its room back. */
    private CompletableFuture<WrittenOrder> toKitchen(OrderFeed.Reservation reservation) {
        return rabbit.publish("", Topology.KITCHEN_QUEUE, reservation.event(), reservation.encoded())
                .whenComplete((confirmed, failure) -> {
                    if (failure == null) {
                        feed.commit(reservation);
                    }
                    else if (ProblemException.unwrap(failure) instanceof OutcomeUnknownException unknown
                            && unknown.outcome() != null) {
                        // the kitchen's queue may still take it: the feed follows RabbitMQ's real answer
                        unknown.outcome().whenComplete((late, lateFailure) -> {
                            if (lateFailure == null) {
                                feed.commit(reservation);
                            }
                            else {
                                feed.cancel(reservation);
                            }
                        });
                    }
                    else {
                        feed.cancel(reservation);
                    }
                })
                .handle((confirmed, failure) -> WrittenOrder.answered(reservation.event(), reservation.encoded(), failure));
    }

    /** RabbitMQ answers and does not block publishing (the kitchen's queue); the feed is in this service's memory. */
    @Override
    public List<SourceCheck> needs(OutputChecks checks) {
        return List.of(checks.rabbitmq(), checks.rabbitmqPublishing());
    }

    /** Called on the switching thread (not an event loop), after the act is saved. */
    @Override
    public void entered(ActState state) {
        if (state.strategy() != FeedStrategy.UNBOUNDED) {
            return;
        }
        long started = System.nanoTime();
        // the one explicit collection of the service: what the budget is measured against
        System.gc();
        log.info("heap collected for the feed's budget in {} ms", (System.nanoTime() - started) / 1_000_000);
    }
}
