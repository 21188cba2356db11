package dev.lunchrush.orderservice.problems;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;


import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/**
 * 503 for a write whose outcome is not known when it must be answered: the broker took the request but
 * did not say within the deadline whether it wrote it (a RabbitMQ confirm or a Kafka ack that comes
 * late, a Kafka transaction's commit left unanswered). Unlike {@link ProblemException#unavailable} it
 * never says that nothing was written. The client is told to send the same request again with the same
 * {@code Idempotency-Key}: the retry gets the real outcome, the stored answer when it was written.
 *
 * <p>{@link #outcome()} completes when the broker's real answer arrives in this process: with what the
 * write's stage would have produced had it come in time, or exceptionally when nothing was written. It is
 * {@code null} when no later answer will come here (an import's transaction: a retry learns its outcome
 * from the log).
 *
 * <p>{@link #ifWritten()} is what the write's stage produces should the write turn out done (the order's accepted
 * answer), where it is known at the deadline: kept under the request's Idempotency-Key, it lets a retry after a
 * restart, when the broker's answer is lost, learn the outcome.
 */
public final class OutcomeUnknownException extends ProblemException {

    private final @Nullable CompletableFuture<?> outcome;
    private final @Nullable Object ifWritten;

    public OutcomeUnknownException(String detail, @Nullable CompletableFuture<?> outcome) {
        this(detail, outcome, null);
    }

    private OutcomeUnknownException(String detail, @Nullable CompletableFuture<?> outcome, @Nullable Object ifWritten) {
        super(ProblemType.OUTCOME_UNKNOWN, detail);
        this.outcome = outcome;
        this.ifWritten = ifWritten;
    }

    public @Nullable CompletableFuture<?> outcome() {
        return outcome;
    }

    public @Nullable Object ifWritten() {
        return ifWritten;
    }

    /** The same unknown outcome, with what the stage produces if it was written. */
    public OutcomeUnknownException withIfWritten(Object value) {
        return new OutcomeUnknownException(detail(), outcome, value);
    }

    /**
     * The same unknown outcome as the next stage sees it: the real answer, once it comes, passed through
     * {@code next} as the value of the stage that timed out would have been; so is {@link #ifWritten()}.
     */
    @SuppressWarnings("unchecked")
    public <T> OutcomeUnknownException then(Function<? super T, ?> next) {
        if (outcome == null && ifWritten == null) {
            return this;
        }
        return new OutcomeUnknownException(detail(), outcome == null ? null : ((CompletableFuture<T>) outcome).thenApply(next),
                ifWritten == null ? null : next.apply((T) ifWritten));
    }
}
