package dev.lunchrush.load.backfill;

import java.time.Duration;

import dev.failsafe.RetryPolicyConfig;
import org.junit.jupiter.api.Test;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ServiceClient;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failed attempts of a batch are worth another, and how long it is tried. */
class ImportRetryTests {

    @Test
    void a5xxOrNoAnswerIsSentAgain() {
        for (int status : new int[] {500, 502, 503, 504}) {
            assertThat(ImportRetry.worthRetrying(DemoException.answered("order-service answered with " + status, status)))
                    .as("%d", status).isTrue();
        }
        assertThat(ImportRetry.worthRetrying(DemoException.temporary("order-service at http://127.0.0.1:8080 does not answer")))
                .as("no connection, a timeout, a connection cut").isTrue();
    }

    @Test
    void a4xxIsNeverSentAgain() {
        for (int status : new int[] {400, 401, 403, 404, 409, 413, 422, 429}) {
            assertThat(ImportRetry.worthRetrying(DemoException.answered("order-service answered with " + status, status)))
                    .as("%d", status).isFalse();
        }
    }

    @Test
    void whatIsNoServicesAnswerIsNotSentAgain() {
        assertThat(ImportRetry.worthRetrying(new DemoException("interrupted"))).isFalse();
        assertThat(ImportRetry.worthRetrying(new DemoException("order-service imported 3 of a batch of 4 orders"))).isFalse();
        assertThat(ImportRetry.worthRetrying(new IllegalStateException("a bug"))).isFalse();
    }

    @Test
    void theBackoffDoublesFromOneSecondToFiveAndTheBudgetBoundsTheAttempts() {
        RetryPolicyConfig<ServiceClient.Reply> config = ImportRetry.policy(ImportRetry.DEFAULT_BUDGET, event -> { })
                .getConfig();

        assertThat(config.getDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.getMaxDelay()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.getDelayFactor()).isEqualTo(2.0);
        assertThat(config.getMaxRetries()).as("as many as the budget holds").isEqualTo(-1);
        assertThat(config.getMaxDuration()).isEqualTo(Duration.ofMinutes(2));
    }
}
