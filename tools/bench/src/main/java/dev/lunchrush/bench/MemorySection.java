package dev.lunchrush.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;


/**
 * {@code ./demo bench --section memory}: the order service's heap after GC, sampled every 2 s through an overload
 * of the log act: orders at the intake's own sustained rate (measured by the intake section, else a modest one)
 * against an analytics job four times slower. The overload is the readers'; the log holds the backlog, and the
 * order service's heap should not care.
 */
final class MemorySection {

    static final String KEY = "memory";
    private static final double RATE_WITHOUT_INTAKE = 200;

    private final BenchRun run;
    private final double intakeRate;

    /** {@code intakeRate}: the rate the intake section held, 0 when it did not run. */
    MemorySection(BenchRun run, double intakeRate) {
        this.run = run;
        this.intakeRate = intakeRate;
    }

    Part run(Supplier<byte[]> bodies) {
        run.act("log");
        double rate = run.smoke() ? 100 : intakeRate > 0 ? intakeRate : RATE_WITHOUT_INTAKE;
        Duration duration = run.smoke() ? Duration.ofSeconds(5) : Duration.ofMinutes(3);
        double previousCapacity = run.dashboard().stats().capacityPerSecond();
        double capacity = Math.max(1, Math.floor(rate / 4));
        run.dashboard().setCapacity(Math.round(capacity));
        run.say("memory: %,.0f orders/s for %d s against an analytics job set to %,.0f/s (the log act's overload)…"
                .formatted(rate, duration.toSeconds(), capacity));
        List<double[]> samples = new CopyOnWriteArrayList<>();
        Thread sampler = sampler(samples);
        sampler.start();
        RateSearch.Outcome overload;
        try {
            overload = RateSearch.run("overload", run.orderService().orders(), bodies,
                    List.of(rate), duration, Duration.ofSeconds(1), run.out());
        }
        finally {
            sampler.interrupt();
            run.dashboard().setCapacity(Math.round(previousCapacity));
        }
        HeapTrend trend = HeapTrend.of(samples);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("ratePerSecond", rate);
        figures.put("dashboardCapacityPerSecond", capacity);
        figures.put("seconds", duration.toSeconds());
        figures.put("heapAfterGc", trend);
        figures.put("samples", samples);
        figures.put("intakeStep", overload.steps().isEmpty() ? null : overload.steps().get(0));
        return new Part(KEY, figures, List.<String[]>of(new String[] {"order service heap after GC, %,.0f/s vs job %,.0f/s, %d s"
                .formatted(rate, capacity, duration.toSeconds()), "%.1f → %.1f MB (max %.1f), %+.2f MB/min".formatted(
                        trend.firstMb(), trend.lastMb(), trend.maxMb(), trend.slopeMbPerMinute()), "", "", "flat"}));
    }

    /** A daemon thread adding (seconds since its start, MB of heap after GC) every 2 s until it is interrupted. */
    private Thread sampler(List<double[]> samples) {
        Thread sampler = new Thread(() -> {
            long start = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                run.orderService().tryStats(Duration.ofSeconds(2)).ifPresent(stats -> samples.add(new double[] {
                    (System.nanoTime() - start) / 1e9, stats.heap().usedAfterGcBytes() / 1e6}));
                try {
                    Thread.sleep(2000);
                }
                catch (InterruptedException ex) {
                    return;
                }
            }
        }, "bench-heap");
        sampler.setDaemon(true);
        return sampler;
    }
}
