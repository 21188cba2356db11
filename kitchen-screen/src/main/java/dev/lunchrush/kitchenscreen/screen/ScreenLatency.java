package dev.lunchrush.kitchenscreen.screen;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * Placed → shown of live orders: the {@code order_to_screen_latency_seconds} histogram for Prometheus,
 * and the page's figures, all since the start: count, mean, maximum, last. The timer's own maximum is
 * the largest of a sliding window of about two minutes (it falls back to 0 when nothing comes), so the
 * page does not use it: beside a mean since the start, a maximum of the last minutes could read below the mean.
 */
final class ScreenLatency {

    private final Timer timer;
    private long count;
    private long totalMillis;
    private long maxMillis;
    private long lastMillis;

    ScreenLatency(MeterRegistry registry) {
        this.timer = Timer.builder("order.to.screen.latency")
                .description("From the order's placedAt to the moment this screen showed it (live orders)")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(30))
                .register(registry);
    }

    synchronized void record(long millis) {
        timer.record(millis, TimeUnit.MILLISECONDS);
        count++;
        totalMillis += millis;
        maxMillis = Math.max(maxMillis, millis);
        lastMillis = millis;
    }

    synchronized ScreenStats.Latency stats() {
        return new ScreenStats.Latency(count, count == 0 ? 0 : (double) totalMillis / count, maxMillis, lastMillis);
    }
}
