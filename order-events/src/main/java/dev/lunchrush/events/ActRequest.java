package dev.lunchrush.events;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The act switch's body: the order service's {@code PUT /admin/act}, and the control room's {@code PUT /api/act}
 * that asks it. Its constraints are declared here once: both controllers check them (Bean Validation) and both
 * OpenAPI documents show them. That a strategy and a capacity belong to {@code memory-feed} alone takes two fields:
 * the controllers check it.
 *
 * @param act the act's id, as {@link Act} names it
 * @param strategy the feed's, as {@link FeedStrategy} names it; {@code unbounded} when absent
 * @param capacity the feed's, in events; the order service's default when absent
 */
public record ActRequest(
        @NotBlank(message = OrderLimits.REQUIRED) @Pattern(regexp = ActRequest.ACTS, message = "must be one of shared-queue, queue-per-reader, memory-feed, log")
        @Nullable String act,
        @Pattern(regexp = ActRequest.STRATEGIES, message = "must be one of unbounded, block, drop, throttle")
        @Nullable String strategy,
        @Min(value = 1, message = "must be at least {value}")
        @Nullable Integer capacity) {

    /** Every act's id (the tests hold it to {@link Act}). */
    public static final String ACTS = "shared-queue|queue-per-reader|memory-feed|log";

    /** Every feed strategy's id. */
    public static final String STRATEGIES = "unbounded|block|drop|throttle";
}
