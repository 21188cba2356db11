package dev.lunchrush.orderservice.feed;

import java.time.Duration;

import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The in-memory feed's settings ({@code lunchrush.feed}); strategy and capacity are the act's. (The tag of
 * {@code maxWait} comes before that of {@code maxWaiting}: the metadata processor takes the first tag that begins
 * with a component's name.)
 *
 * @param blockTimeout how long {@code block} lets an order wait for room before it gets 503
 * @param maxWait the longest {@code waitMillis} a {@code GET /feed} may ask for
 * @param maxWaiting how many orders {@code block} lets wait at once; beyond, 503 at once. Each holds one
 *        of the threads for blocking work (64): kept below their number, the other acts' publishes and an
 *        act switch always find one
 * @param retryAfter what {@code throttle} tells the client to wait (HTTP Retry-After, whole seconds)
 * @param maxBatch the most events one {@code GET /feed} hands out
 */
@Validated
@ConfigurationProperties("lunchrush.feed")
public record FeedSettings(
        @DefaultValue("2s") Duration blockTimeout,
        @DefaultValue("48") @Min(1) int maxWaiting,
        @DefaultValue("1s") Duration retryAfter,
        @DefaultValue("10000") @Min(1) int maxBatch,
        @DefaultValue("30s") Duration maxWait) {
}
