package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.load.rush.DriverHttp;
import dev.lunchrush.load.rush.OpenLoopDriver;
import dev.lunchrush.localstack.access.Pause;

/**
 * The highest constant rate an endpoint sustains: open-loop steps of rising rate (latency from each request's
 * intended send time, so queueing shows), until a step misses: p99 at or over {@link #P99_LIMIT_MILLIS}, a
 * request not accepted, fewer than 95% of the rate answered, or the driver itself more than 1% late.
 */
final class RateSearch {

    static final double P99_LIMIT_MILLIS = 50;
    /** The search's steps: fine where a small machine ends, coarse above. */
    static final List<Double> RATES = List.of(50.0, 100.0, 150.0, 200.0, 300.0, 400.0, 600.0, 800.0, 1000.0, 1500.0,
            2000.0, 3000.0, 4000.0, 6000.0, 8000.0, 10000.0);
    /** The steps of a smoke run. */
    static final List<Double> SMOKE_RATES = List.of(50.0, 100.0);
    private static final int MAX_IN_FLIGHT = 512;
    private static final long OVERRUN_MILLIS = 5_000;

    /** One step of the search. */
    record Step(double targetPerSecond, double achievedPerSecond, long accepted, long notAccepted, long lateSends,
            double p50Millis, double p99Millis, double p999Millis, boolean held) {
    }

    /** The steps, and the best one that held (null when none did). */
    record Outcome(String name, List<Step> steps, @Nullable Step best) {

        double bestRate() {
            return best == null ? 0 : best.targetPerSecond();
        }
    }

    private RateSearch() {
    }

    static Outcome run(String name, URI uri, @Nullable Supplier<byte[]> bodies, List<Double> rates, Duration step,
            Duration warmUp, PrintWriter out) {
        return withClient(http -> {
            say(out, name + ": warm-up, " + warmUp.toSeconds() + " s at " + rates.get(0).longValue() + "/s");
            drive(http, uri, bodies, rates.get(0), warmUp);
            List<Step> steps = new ArrayList<>();
            Step best = null;
            for (double rate : rates) {
                Step result = drive(http, uri, bodies, rate, step);
                steps.add(result);
                say(out, "%s: %,6.0f/s asked, %,6.0f/s answered, p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, %d not accepted: %s"
                        .formatted(name, rate, result.achievedPerSecond(), result.p50Millis(), result.p99Millis(),
                                result.p999Millis(), result.notAccepted(), result.held() ? "held" : "missed"));
                if (!result.held()) {
                    break;
                }
                best = result;
                Pause.sleep(Duration.ofSeconds(2));
            }
            return new Outcome(name, steps, best);
        });
    }

    /** A measured step, the marks taken just before it started and just after its last answer, and how long the warm-up took. */
    record Measured<T>(Step step, T before, T after, double warmUpSeconds) {
    }

    /**
     * A warm-up of at least {@code least}, then, until {@code settled} says so or {@code most} is reached, more
     * {@code step}s at the same rate. {@code settled} is asked after each part of the warm-up.
     */
    record WarmUp(Duration least, Duration most, Duration step, BooleanSupplier settled) {

        static WarmUp fixed(Duration warmUp) {
            return new WarmUp(warmUp, warmUp, warmUp, () -> true);
        }
    }

    /**
     * What is read around a measured step: once the warm-up's answers are in, right before the step, and once the
     * step's answers are in. Each is told the step it follows, so that it can wait for what that step sent to arrive
     * somewhere else (e.g. on the kitchen screen) before it reads.
     */
    interface Marks<T> {

        T afterWarmUp(Step warmUp);

        T afterWindow(Step window);

        /** The same reading at both ends, whatever the steps did. */
        static <T> Marks<T> of(Supplier<T> mark) {
            return new Marks<>() {
                @Override
                public T afterWarmUp(Step warmUp) {
                    return mark.get();
                }

                @Override
                public T afterWindow(Step window) {
                    return mark.get();
                }
            };
        }
    }

    /**
     * A warm-up at the rate, then one measured step at the same rate on the same connections, with {@code mark} read
     * right before the measured step and right after it (every answer in): what the stack did meanwhile, e.g. its
     * CPU, is then that step's.
     */
    static <T> Measured<T> warmThenMeasure(String name, URI uri, @Nullable Supplier<byte[]> bodies, double rate,
            Duration warmUp, Duration window, Supplier<T> mark, PrintWriter out) {
        return warmThenMeasure(name, uri, bodies, rate, warmUp, window, Marks.of(mark), out);
    }

    /** As above, with marks that know what the warm-up and the window sent. */
    static <T> Measured<T> warmThenMeasure(String name, URI uri, @Nullable Supplier<byte[]> bodies, double rate,
            Duration warmUp, Duration window, Marks<T> marks, PrintWriter out) {
        return warmThenMeasure(name, uri, bodies, rate, WarmUp.fixed(warmUp), window, marks, out);
    }

    /** As above, with a warm-up that goes on until the stack has settled (or for as long as it may). */
    static <T> Measured<T> warmThenMeasure(String name, URI uri, @Nullable Supplier<byte[]> bodies, double rate,
            WarmUp warmUp, Duration window, Marks<T> marks, PrintWriter out) {
        return withClient(http -> {
            say(out, "%s: warm-up, %s at %,.0f/s, then %d s measured".formatted(name, warmUp.least().equals(warmUp.most())
                    ? warmUp.least().toSeconds() + " s" : warmUp.least().toSeconds() + "-" + warmUp.most().toSeconds() + " s",
                    rate, window.toSeconds()));
            long warmStart = System.nanoTime();
            Step warm = drive(http, uri, bodies, rate, warmUp.least());
            Duration warmed = warmUp.least();
            while (warmed.compareTo(warmUp.most()) < 0 && !warmUp.settled().getAsBoolean()) {
                warm = drive(http, uri, bodies, rate, warmUp.step());
                warmed = warmed.plus(warmUp.step());
            }
            double warmUpSeconds = (System.nanoTime() - warmStart) / 1e9;
            T before = marks.afterWarmUp(warm);
            Step step = drive(http, uri, bodies, rate, window);
            T after = marks.afterWindow(step);
            say(out, "%s: %,6.0f/s asked, %,6.0f/s answered, p50 %.1f ms, p99 %.1f ms, %d not accepted".formatted(name, rate,
                    step.achievedPerSecond(), step.p50Millis(), step.p99Millis(), step.notAccepted()));
            return new Measured<>(step, before, after, warmUpSeconds);
        });
    }

    /** One client for the warm-up and the steps: the steps find its connections open. */
    private static <R> R withClient(java.util.function.Function<DriverHttp, R> work) {
        try (DriverHttp http = new DriverHttp(Duration.ofSeconds(10))) {
            return work.apply(http);
        }
    }

    private static Step drive(DriverHttp http, URI uri, @Nullable Supplier<byte[]> bodies, double rate, Duration duration) {
        OpenLoopDriver driver = new OpenLoopDriver(http, uri, bodies, RateProfile.constant(rate, duration, 1), 0,
                MAX_IN_FLIGHT, Duration.ZERO);
        long start = System.nanoTime();
        // a step the stack cannot hold is cut short once the driver is 5 s behind: it has missed, and draining
        // minutes of queued orders would only delay the next measurement
        Thread watchdog = new Thread(() -> {
            while (!driver.stopped()) {
                if (driver.currentLagMillis() > OVERRUN_MILLIS) {
                    driver.stop();
                    return;
                }
                try {
                    Thread.sleep(100);
                }
                catch (InterruptedException ex) {
                    return;
                }
            }
        }, "bench-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        driver.run();
        watchdog.interrupt();
        boolean cut = driver.stopped();
        double seconds = Math.max(duration.toMillis() / 1000.0, (System.nanoTime() - start) / 1e9);
        Histogram latency = driver.latencyHistogram();
        long accepted = driver.accepted();
        long notAccepted = driver.notAccepted();
        long sends = accepted + notAccepted;
        double p99 = millis(latency, 99);
        boolean held = !cut && notAccepted == 0 && p99 < P99_LIMIT_MILLIS && accepted >= 0.95 * rate * duration.toMillis() / 1000.0
                && driver.lateSends() <= Math.max(1, sends / 100);
        return new Step(rate, accepted / seconds, accepted, notAccepted, driver.lateSends(), millis(latency, 50), p99,
                millis(latency, 99.9), held);
    }

    static double millis(Histogram micros, double percentile) {
        return micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(percentile) / 1000.0;
    }

    static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }

}
