package dev.lunchrush.orderservice.act;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderLimits;

/**
 * {@code PUT /admin/act}'s body. Its constraints are declared here once: {@link ActController} checks them (Bean
 * Validation, after the JSON's shape) and the OpenAPI document shows them.
 *
 * @param act the act's id, as {@link dev.lunchrush.events.Act} names it
 * @param strategy the feed's, as {@link dev.lunchrush.events.FeedStrategy} names it; {@code unbounded} when absent
 * @param capacity the feed's, in events; {@link ActState#DEFAULT_CAPACITY} when absent
 */
record ActRequest(
        @NotBlank(message = OrderLimits.REQUIRED) @Pattern(regexp = ActRequest.ACTS, message = "must be one of shared-queue, queue-per-reader, memory-feed, log")
        @Nullable String act,
        @Pattern(regexp = ActRequest.STRATEGIES, message = "must be one of unbounded, block, drop, throttle")
        @Nullable String strategy,
        @Min(value = 1, message = "must be at least {value}")
        @Nullable Integer capacity) {

    /** Every act's id ({@code ActRequestTests} holds it to the enum). */
    static final String ACTS = "shared-queue|queue-per-reader|memory-feed|log";

    /** Every feed strategy's id. */
    static final String STRATEGIES = "unbounded|block|drop|throttle";
}
