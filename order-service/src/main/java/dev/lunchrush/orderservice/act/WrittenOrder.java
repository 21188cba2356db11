package dev.lunchrush.orderservice.act;

import java.util.concurrent.CompletionException;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;

/** An order its act's output took: its event and, where the act encoded it already, its bytes. */
public record WrittenOrder(OrderEvent event, byte @Nullable [] encoded) {

    /**
     * The order once the output answered: written when {@code failure} is null; otherwise the failure, unwrapped,
     * and a failure whose outcome is unknown goes on carrying the event it may have written (its late
     * outcome, too, is the event).
     */
    static WrittenOrder answered(OrderEvent event, byte @Nullable [] encoded, @Nullable Throwable failure) {
        if (failure != null) {
            Throwable cause = ProblemException.unwrap(failure);
            if (cause instanceof OutcomeUnknownException unknown) {
                throw unknown.withIfWritten(event);
            }
            throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
        }
        return new WrittenOrder(event, encoded);
    }
}
