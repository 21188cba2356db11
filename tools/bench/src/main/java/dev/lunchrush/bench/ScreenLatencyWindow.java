package dev.lunchrush.bench;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Pause;

/**
 * The end-to-end section's measured window on the kitchen screen's latency histogram. The first reading is taken
 * only once every order of the warm-up has been counted by the screen, the second once every order of the measured
 * window has: their difference is then the window's orders and no others. A warm-up runs cold (connections, the
 * JIT) and its slow orders would otherwise sit in the percentiles; a fixed pause after the window would cut off
 * the window's last orders when the screen lags and wait for nothing when it does not.
 *
 * <p>Each wait is bounded: a screen that does not count the orders it was sent within the bound fails the
 * section with the counts it did reach, instead of measuring a part of them.
 */
final class ScreenLatencyWindow implements RateSearch.Marks<LatencyBuckets> {

    static final Duration POLL = Duration.ofMillis(250);

    private final Supplier<LatencyBuckets> scrape;
    private final Duration bound;
    private final LongSupplier nanoTime;
    private final Consumer<Duration> sleep;
    private final LatencyBuckets start;
    private @Nullable LatencyBuckets before;
    private @Nullable LatencyBuckets after;

    /** Reads the histogram now: the orders counted so far are not the window's. */
    ScreenLatencyWindow(Supplier<LatencyBuckets> scrape, Duration bound) {
        this(scrape, bound, System::nanoTime, Pause::sleep);
    }

    ScreenLatencyWindow(Supplier<LatencyBuckets> scrape, Duration bound, LongSupplier nanoTime, Consumer<Duration> sleep) {
        this.scrape = scrape;
        this.bound = bound;
        this.nanoTime = nanoTime;
        this.sleep = sleep;
        this.start = scrape.get();
    }

    /** Waits until the screen has counted the warm-up's accepted orders; the reading the window is measured from. */
    @Override
    public LatencyBuckets afterWarmUp(RateSearch.Step warmUp) {
        before = awaitOrders(start, warmUp.accepted(), "the warm-up");
        return before;
    }

    /** Waits until the screen has counted the window's accepted orders too; the reading the window ends at. */
    @Override
    public LatencyBuckets afterWindow(RateSearch.Step window) {
        if (before == null) {
            throw new IllegalStateException("the window ends before the warm-up was marked");
        }
        after = awaitOrders(before, window.accepted(), "the measured window");
        return after;
    }

    /** The measured window's orders alone: the second reading less the first. */
    LatencyBuckets measured() {
        if (before == null || after == null) {
            throw new IllegalStateException("the window has not been measured yet");
        }
        return after.minus(before);
    }

    /**
     * Reads the histogram every {@link #POLL} until it holds at least {@code orders} more than {@code from}; that
     * reading. Fails when the bound passes first.
     */
    LatencyBuckets awaitOrders(LatencyBuckets from, long orders, String what) {
        long deadline = nanoTime.getAsLong() + bound.toNanos();
        while (true) {
            LatencyBuckets now = scrape.get();
            long counted = now.minus(from).count();
            if (counted >= orders) {
                return now;
            }
            if (nanoTime.getAsLong() - deadline >= 0) {
                throw new DemoException("the kitchen screen counted %,d of the %,d orders of %s within %d s "
                        .formatted(counted, orders, what, bound.toSeconds())
                        + "(its order_to_screen_latency_seconds histogram): is it reading the log? (./demo status)");
            }
            sleep.accept(POLL);
        }
    }
}
