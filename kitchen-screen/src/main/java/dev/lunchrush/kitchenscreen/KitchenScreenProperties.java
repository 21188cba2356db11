package dev.lunchrush.kitchenscreen;

import java.net.URI;
import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the kitchen screen.
 *
 * @param dataDir where the journal of the orders already shown lives
 * @param orderService where the order service answers, to show how many orders were placed
 * @param screen how the page counts and lists
 */
@Validated
@ConfigurationProperties("lunchrush")
public record KitchenScreenProperties(
        @DefaultValue("data/kitchen-screen") @NotBlank String dataDir,
        @DefaultValue OrderService orderService,
        @DefaultValue Screen screen) {

    /**
     * The order service, polled for its {@code placed} count; it may be down.
     *
     * @param url where the order service answers
     * @param pollInterval how often its count is asked while somebody looks at the screen
     */
    public record OrderService(
            @DefaultValue("http://127.0.0.1:8080") URI url,
            @DefaultValue("1s") Duration pollInterval) {
    }

    /**
     * @param missingGrace how long a gap in the sequence may stay open before the order counts as
     *     missing: Kafka partitions deliver in their own order, so a later order may come first
     * @param recentPerKitchen how many orders each kitchen's column keeps
     * @param missingListed how many missing orders the page lists by number
     * @param rememberShown how long the ids of shown orders are kept to refuse duplicates; a live order placed
     *     longer ago than that is not shown (counted as expired)
     * @param rememberMaxOrders the most ids kept (about 27 to 53 bytes of heap each); beyond it the oldest are
     *     forgotten early, a segment at a time, and orders placed before them are no longer shown
     * @param traceLink where a traced order's trace is shown, its trace id appended (Zipkin's page of a trace)
     */
    public record Screen(
            @DefaultValue("3s") Duration missingGrace,
            @DefaultValue("20") @Min(1) int recentPerKitchen,
            @DefaultValue("30") @Min(1) int missingListed,
            @DefaultValue("2d") Duration rememberShown,
            @DefaultValue("1000000") @Min(1000) long rememberMaxOrders,
            @DefaultValue("http://localhost:9411/zipkin/traces/") String traceLink) {
    }
}
