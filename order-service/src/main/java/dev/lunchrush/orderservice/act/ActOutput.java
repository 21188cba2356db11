package dev.lunchrush.orderservice.act;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * One act as the order service plays it: where it writes an order, what must answer for the service to be ready,
 * and what it does when the act is switched to. One class per act, mapped to its act by {@link Acts}; the intake, the
 * readiness probe and the act switch ask the current act's output and never compare acts themselves.
 */
public interface ActOutput {

    /**
     * Writes one order. {@code event} makes the order's event; call it once, and only when the order will be
     * written (a sequence number taken by a refused order shows at the readers as a missing one). The future
     * completes once the act's outputs took the order durably, and fails with a problem (503, 429) when they did
     * not, or with an outcome-unknown problem that carries the order's event.
     */
    CompletableFuture<WrittenOrder> write(ActState state, Supplier<OrderEvent> event);

    /** What must answer for this service to take orders in the act: the readiness probe's {@code sources}. */
    List<SourceCheck> needs(OutputChecks checks);

    /**
     * Called on the switching thread (not an event loop) after every switch that names this act, a switch from
     * the act to itself included, once the new state is saved.
     */
    default void entered(ActState state) {
    }

    /**
     * True when the output can be read back to learn whether it holds an order whose answer was lost (the log);
     * a queue cannot be asked about one message.
     */
    default boolean canBeAskedForAnOrder() {
        return false;
    }
}
