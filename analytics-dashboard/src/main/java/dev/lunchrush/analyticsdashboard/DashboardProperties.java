package dev.lunchrush.analyticsdashboard;

import java.net.URI;
import java.time.Duration;
import java.time.ZoneId;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Settings of the analytics dashboard.
 *
 * @param dataDir where the embedded database (aggregates and consumed offsets) lives
 * @param zone the zone of the page's hours and days
 * @param orderService the order service, whose in-memory feed (act 3) this job pulls from
 * @param analytics the job's processing capacity
 * @param feed how the feed is pulled
 */
@Validated
@ConfigurationProperties("lunchrush")
public record DashboardProperties(
        @DefaultValue("data/analytics-dashboard") @NotBlank String dataDir,
        @DefaultValue("UTC") ZoneId zone,
        @DefaultValue OrderService orderService,
        @DefaultValue Analytics analytics,
        @DefaultValue Feed feed) {

    /** @param url where the order service answers: its {@code GET /feed} in act 3 */
    public record OrderService(@DefaultValue("http://127.0.0.1:8080") URI url) {
    }

    /** @param capacityPerSecond events per second the job processes at most, all sources together */
    public record Analytics(@DefaultValue("250") @Min(1) @Max(1_000_000) int capacityPerSecond) {
    }

    /**
     * @param enabled whether to pull {@code GET /feed} at all
     * @param maxPerRequest the most events asked for in one pull (fewer at a low capacity)
     * @param waitMillis how long the order service may hold a pull open while its feed is empty: outside act 3 one
     *     pull every few seconds instead of every second; in act 3 a pull is answered as soon as there are events, so
     *     this costs no latency. Below {@code stopTimeout}, so that a graceful stop always lets an open pull finish
     * @param stopTimeout how long a graceful stop waits for an open pull and the processing of the batch in
     *     hand before it gives them up; below {@code spring.lifecycle.timeout-per-shutdown-phase}, so that the
     *     database is still open meanwhile
     */
    public record Feed(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("500") @Min(1) int maxPerRequest,
            @DefaultValue("4000") @Min(0) int waitMillis,
            @DefaultValue("5s") Duration stopTimeout) {
    }
}
