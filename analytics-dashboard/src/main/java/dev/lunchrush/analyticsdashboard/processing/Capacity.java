package dev.lunchrush.analyticsdashboard.processing;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

import dev.lunchrush.analyticsdashboard.DashboardProperties;

/**
 * The job's processing capacity: a pacing rate limiter in front of processing, shared by every
 * source, so that the job is really as slow as the lesson's (250 events/s by default). Each batch
 * reserves its events' time slots; a batch waits until its slot comes. Up to 200 ms
 * of unused time is saved up, so that the work between batches (acknowledgements, polls, a slow
 * commit) does not make the job slower than its capacity; more is not, so a burst after a pause
 * stays small.
 */
@Component
public class Capacity {

    private static final long CREDIT_NANOS = 200_000_000L;

    private volatile int perSecond;
    private long nextFreeNanos = System.nanoTime();

    Capacity(DashboardProperties properties, MeterRegistry registry) {
        this.perSecond = properties.analytics().capacityPerSecond();
        Gauge.builder("analytics.capacity.events.per.second", this, Capacity::perSecond)
                .description("The analytics job's processing capacity")
                .register(registry);
    }

    public int perSecond() {
        return perSecond;
    }

    public void change(int eventsPerSecond) {
        if (eventsPerSecond < 1) {
            throw new IllegalArgumentException("eventsPerSecond must be at least 1");
        }
        this.perSecond = eventsPerSecond;
    }

    /** Waits until {@code events} may be processed. */
    void acquire(int events) throws InterruptedException {
        long waitNanos;
        synchronized (this) {
            long now = System.nanoTime();
            long start = Math.max(now - CREDIT_NANOS, nextFreeNanos);
            nextFreeNanos = start + (long) (events * 1_000_000_000.0 / perSecond);
            waitNanos = Math.max(0, start - now);
        }
        if (waitNanos > 0) {
            TimeUnit.NANOSECONDS.sleep(waitNanos);
        }
    }
}
