package dev.lunchrush.load.rush;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the open-loop driver counts, readable while the rush runs: every order's outcome, how late each send left
 * against its intended time, and the latency of the accepted ones from that intended time (microseconds). Safe to
 * record from the event loop and read from any thread.
 */
final class DriverCounters {

    /** A send more than this late counts as the generator not holding the rate. */
    static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    final LongAdder scheduled = new LongAdder();
    final LongAdder attempts = new LongAdder();
    final LongAdder accepted = new LongAdder();
    final LongAdder throttled = new LongAdder();
    final LongAdder retried = new LongAdder();
    final LongAdder unavailable = new LongAdder();
    final LongAdder timeouts = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder gaveUp = new LongAdder();
    final LongAdder reconnects = new LongAdder();
    final LongAdder lateSends = new LongAdder();
    final LongAdder inFlightLimitHits = new LongAdder();
    final Map<Integer, LongAdder> otherStatuses = new ConcurrentHashMap<>();
    /** Why requests failed without an answer, by exception and message (the first few kinds). */
    final Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();
    final AtomicLong firstSendNanos = new AtomicLong();
    final AtomicLong lastSendNanos = new AtomicLong();
    volatile long currentLagNanos;

    private final Recorder latency = new Recorder(HIGHEST_MICROS, 3);
    private final Histogram latencyTotal = new Histogram(HIGHEST_MICROS, 3);
    private final Histogram lag = new Histogram(HIGHEST_MICROS, 3);

    /** An order's first attempt, due at {@code intendedNanos}, leaves at {@code nowNanos}. */
    void sent(long intendedNanos, long nowNanos) {
        long late = Math.max(0, nowNanos - intendedNanos);
        currentLagNanos = late;
        synchronized (lag) {
            lag.recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(late), lag.getHighestTrackableValue()));
        }
        if (late > LATE_NANOS) {
            lateSends.increment();
        }
        firstSendNanos.compareAndSet(0, nowNanos);
        lastSendNanos.set(nowNanos);
        scheduled.increment();
    }

    /** An order was accepted now; its latency counts from the intended time of its first attempt. */
    void accepted(long intendedNanos) {
        accepted.increment();
        long micros = TimeUnit.NANOSECONDS.toMicros(Math.max(0, System.nanoTime() - intendedNanos));
        latency.recordValue(Math.min(micros, HIGHEST_MICROS));
    }

    /** A request that failed without an answer, its kind kept among the first few. */
    void failedWithoutAnswer(Throwable cause) {
        errors.increment();
        if (errorKinds.size() < 10) {
            errorKinds.computeIfAbsent(cause.getClass().getSimpleName() + ": " + cause.getMessage(),
                    k -> new LongAdder()).increment();
        }
    }

    /** An answer that is neither accepted, throttled nor refused. */
    void otherStatus(int status) {
        otherStatuses.computeIfAbsent(status, s -> new LongAdder()).increment();
    }

    /** Requests that ended any other way than accepted: refused, throttled, timed out, failed. */
    long notAccepted() {
        return unavailable.sum() + throttled.sum() + timeouts.sum() + errors.sum()
                + otherStatuses.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** How late each send was against its intended time (microseconds). */
    Histogram lagHistogram() {
        synchronized (lag) {
            return lag.copy();
        }
    }

    /** Latency of the orders accepted since the last call; they count in {@link #latencyHistogram()} as well. */
    Histogram latencySinceLastCall() {
        synchronized (latencyTotal) {
            Histogram interval = latency.getIntervalHistogram();
            latencyTotal.add(interval);
            return interval;
        }
    }

    /** Latency of every accepted order so far. */
    Histogram latencyHistogram() {
        synchronized (latencyTotal) {
            latencyTotal.add(latency.getIntervalHistogram());
            return latencyTotal.copy();
        }
    }
}
