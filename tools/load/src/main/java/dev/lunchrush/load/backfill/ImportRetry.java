package dev.lunchrush.load.backfill;

import java.time.Duration;

import dev.failsafe.RetryPolicy;
import dev.failsafe.event.EventListener;
import dev.failsafe.event.ExecutionAttemptedEvent;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * When and how a batch of {@code ./demo backfill} is sent again: after a 5xx, a timeout or a connection that failed,
 * at 1, 2, 4 s, then every 5 s, until the batch is in or the budget (2 minutes by default, long enough to outlast
 * a Kafka broker's restart behind the order service) is spent. Never after a 4xx: the service read the batch and
 * refused it, and it would refuse it again. The batch's {@code Idempotency-Key} makes a retry safe when the first
 * attempt was in fact written and only its answer was lost: the service answers it from its stored answer and
 * writes nothing.
 */
final class ImportRetry {

    static final Duration FIRST_DELAY = Duration.ofSeconds(1);
    static final Duration MAX_DELAY = Duration.ofSeconds(5);
    static final Duration DEFAULT_BUDGET = Duration.ofMinutes(2);

    private ImportRetry() {
    }

    /** The retry policy of one batch: backoff from 1 s doubling to 5 s, as many attempts as {@code budget} holds. */
    static RetryPolicy<ServiceClient.Reply> policy(Duration budget,
            EventListener<ExecutionAttemptedEvent<ServiceClient.Reply>> onRetry) {
        return RetryPolicy.<ServiceClient.Reply>builder()
                .handleIf(ImportRetry::worthRetrying)
                .withBackoff(FIRST_DELAY, MAX_DELAY)
                .withMaxRetries(-1)
                .withMaxDuration(budget)
                .onRetry(onRetry)
                .build();
    }

    /**
     * Whether a failed attempt is worth another: the service answered a 5xx (it or its broker is away for the
     * moment), or did not answer at all (no connection, a timeout, a connection cut). A 4xx, 429 included, is not.
     */
    static boolean worthRetrying(Throwable failure) {
        if (!(failure instanceof DemoException demo) || !demo.retryable()) {
            return false;
        }
        return demo.status() == 0 || demo.status() / 100 == 5;
    }
}
