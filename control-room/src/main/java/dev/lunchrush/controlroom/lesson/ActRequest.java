package dev.lunchrush.controlroom.lesson;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderLimits;

/**
 * {@code PUT /api/act}'s body, {@code ./demo act}'s arguments: its constraints declared here once, checked by the
 * controller ({@code @Valid}) and shown by the OpenAPI document. That a strategy and a capacity belong to
 * {@code memory-feed} alone takes two fields: {@link ActController} checks it.
 *
 * @param act the act's id, as {@link dev.lunchrush.events.Act} names it
 * @param strategy the feed's, as {@link dev.lunchrush.events.FeedStrategy} names it; the order service's default when absent
 * @param capacity the feed's, in events; the order service's default when absent
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
