package dev.lunchrush.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.lunchrush.localstack.access.DemoException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The end-to-end window against a kitchen screen whose histogram fills as orders arrive, on a clock of the test's
 * own: the warm-up's orders stay out of the percentiles, and the waits end when the orders are counted, or fail.
 */
class ScreenLatencyWindowTests {

    private static final double[] BOUNDS = {0.005, 0.05, 1.0, Double.POSITIVE_INFINITY};

    /** A screen that counts orders at the times they arrive; read at the fake clock's time. */
    private static final class FakeScreen {

        private record Arrival(long atNanos, double latencySeconds, long orders) {
        }

        private final List<Arrival> arrivals = new ArrayList<>();
        long nowNanos;

        void arrive(double atSeconds, double latencySeconds, long orders) {
            arrivals.add(new Arrival(Math.round(atSeconds * 1e9), latencySeconds, orders));
        }

        LatencyBuckets scrape() {
            TreeMap<Double, Long> cumulative = new TreeMap<>();
            for (double le : BOUNDS) {
                cumulative.put(le, arrivals.stream().filter(a -> a.atNanos() <= nowNanos && a.latencySeconds() <= le)
                        .mapToLong(Arrival::orders).sum());
            }
            return new LatencyBuckets(cumulative);
        }

        void sleep(Duration duration) {
            nowNanos += duration.toNanos();
        }

        void advanceTo(double seconds) {
            nowNanos = Math.max(nowNanos, Math.round(seconds * 1e9));
        }

        double seconds() {
            return nowNanos / 1e9;
        }
    }

    private static RateSearch.Step step(long accepted) {
        return new RateSearch.Step(400, 400, accepted, 0, 0, 3, 8, 12, true);
    }

    private static ScreenLatencyWindow window(FakeScreen screen, Duration bound) {
        return new ScreenLatencyWindow(screen::scrape, bound, () -> screen.nowNanos, screen::sleep);
    }

    @Test
    void theMeasuredPercentilesAreTheWindowsOrdersAloneNotTheWarmUpsNorEarlierOnes() {
        FakeScreen screen = new FakeScreen();
        screen.arrive(0, 0.8, 10);       // orders from before the section
        screen.arrive(0.5, 0.8, 60);     // the warm-up runs cold: slow, and still arriving after it ends
        screen.arrive(1.5, 0.8, 40);
        screen.arrive(4.0, 0.004, 980);  // the measured window: fast
        screen.arrive(6.5, 0.04, 20);    // its last orders, 1.5 s after its last answer
        ScreenLatencyWindow window = window(screen, Duration.ofSeconds(60));

        screen.advanceTo(1.0);           // the warm-up's last answer
        window.afterWarmUp(step(100));
        assertThat(screen.seconds()).as("waited for the warm-up's last orders").isGreaterThanOrEqualTo(1.5).isLessThan(2.0);
        screen.advanceTo(5.0);           // the window's last answer
        window.afterWindow(step(1000));
        assertThat(screen.seconds()).as("waited until the window's orders arrived, not longer")
                .isGreaterThanOrEqualTo(6.5).isLessThan(6.5 + ScreenLatencyWindow.POLL.toMillis() / 1000.0 + 1e-9);

        LatencyBuckets measured = window.measured();
        assertThat(measured.count()).isEqualTo(1000);
        assertThat(measured.percentileMillis(50)).isEqualTo(5.0);
        assertThat(measured.percentileMillis(99)).isEqualTo(50.0);
        assertThat(measured.percentileMillis(99.99)).as("no warm-up order in the window").isEqualTo(50.0);
    }

    @Test
    void aScreenThatDoesNotCountTheWindowsOrdersWithinTheBoundFailsTheSection() {
        FakeScreen screen = new FakeScreen();
        screen.arrive(0.5, 0.01, 100);
        screen.arrive(3.0, 0.01, 400);   // 400 of the window's 1,000, and then nothing
        ScreenLatencyWindow window = window(screen, Duration.ofSeconds(10));
        screen.advanceTo(1.0);
        window.afterWarmUp(step(100));
        screen.advanceTo(4.0);

        assertThatThrownBy(() -> window.afterWindow(step(1000))).isInstanceOf(DemoException.class)
                .hasMessageContaining("counted 400 of the 1,000 orders of the measured window within 10 s");
        assertThat(screen.seconds()).as("gave up at the bound").isGreaterThanOrEqualTo(14.0)
                .isLessThan(14.0 + ScreenLatencyWindow.POLL.toMillis() / 1000.0 + 1e-9);
    }
}
