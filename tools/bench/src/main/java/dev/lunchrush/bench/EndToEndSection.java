package dev.lunchrush.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;


/**
 * {@code ./demo bench --section e2e}: the latency from order to kitchen screen (the screen's own histogram of
 * placed to shown) at 400/s and 4,000/s, in the log act; only the orders of the measured window count.
 */
final class EndToEndSection {

    static final String KEY = "endToEnd";
    /** How long the section waits for the kitchen screen to count the orders a step was answered for. */
    static final Duration ARRIVAL_BOUND = Duration.ofMinutes(2);

    private final BenchRun run;

    EndToEndSection(BenchRun run) {
        this.run = run;
    }

    Part run(Supplier<byte[]> bodies) {
        run.act("log");
        boolean smoke = run.smoke();
        Map<String, Object> figures = new LinkedHashMap<>();
        List<String[]> rows = new ArrayList<>();
        for (double rate : smoke ? List.of(40.0, 100.0) : List.of(400.0, 4000.0)) {
            Duration duration = smoke ? Duration.ofSeconds(3) : Duration.ofSeconds(rate > 1000 ? 10 : 30);
            run.say("end to end at %,.0f/s for %d s…".formatted(rate, duration.toSeconds()));
            // the histogram is read once the warm-up's orders are all on the screen, and again once the window's are
            ScreenLatencyWindow window = new ScreenLatencyWindow(() -> LatencyBuckets.scrape(run.kitchenScreen().http()),
                    ARRIVAL_BOUND);
            RateSearch.Measured<LatencyBuckets> measured = RateSearch.warmThenMeasure("placed → kitchen screen at %,.0f/s"
                    .formatted(rate), run.orderService().orders(), bodies, rate,
                    Duration.ofSeconds(1), duration, window, run.out());
            LatencyBuckets delta = window.measured();
            Map<String, Object> atRate = new LinkedHashMap<>();
            atRate.put("ratePerSecond", rate);
            atRate.put("orders", delta.count());
            atRate.put("p50Millis", delta.percentileMillis(50));
            atRate.put("p99Millis", delta.percentileMillis(99));
            atRate.put("intakeStep", measured.step());
            figures.put(String.valueOf((long) rate), atRate);
            rows.add(new String[] {"placed → kitchen screen at %,.0f/s".formatted(rate),
                "p50 ≤ %.0f ms, p99 ≤ %.0f ms (%,d orders)".formatted(delta.percentileMillis(50), delta.percentileMillis(99),
                        delta.count()), "", "", ""});
        }
        return new Part(KEY, figures, rows);
    }
}
