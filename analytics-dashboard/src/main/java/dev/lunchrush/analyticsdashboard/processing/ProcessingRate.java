package dev.lunchrush.analyticsdashboard.processing;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/** Events processed per second, averaged over the last five whole seconds. */
@Component
class ProcessingRate {

    private static final int WINDOW_SECONDS = 5;
    private static final int SLOTS = 16;

    private final long[] counts = new long[SLOTS];
    private final long[] seconds = new long[SLOTS];

    ProcessingRate(MeterRegistry registry) {
        Gauge.builder("analytics.processed.per.second", this, ProcessingRate::perSecond)
                .description("Events the analytics job processed per second, over the last 5 s")
                .register(registry);
    }

    synchronized void record(int events) {
        long second = System.currentTimeMillis() / 1000;
        int slot = (int) (second % SLOTS);
        if (seconds[slot] != second) {
            seconds[slot] = second;
            counts[slot] = 0;
        }
        counts[slot] += events;
    }

    synchronized double perSecond() {
        long now = System.currentTimeMillis() / 1000;
        long sum = 0;
        for (long second = now - WINDOW_SECONDS; second < now; second++) {
            int slot = (int) (second % SLOTS);
            if (seconds[slot] == second) {
                sum += counts[slot];
            }
        }
        return (double) sum / WINDOW_SECONDS;
    }
}
