package dev.lunchrush.kitchenscreen.screen;

import java.time.Duration;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 16 (12): the page read "last 3 ms, mean 1587 ms, max 0 ms" once the timer's two-minute maximum had decayed. */
class ScreenLatencyTests {

    @Test
    void theMaximumIsNeverBelowTheMeanNorTheLast() {
        MockClock clock = new MockClock();
        ScreenLatency latency = new ScreenLatency(new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock));
        latency.record(3_171);
        latency.record(3);
        // nothing for five minutes: Micrometer's windowed maximum has gone back to 0 by now
        clock.add(Duration.ofMinutes(5));
        latency.record(3);

        ScreenStats.Latency stats = latency.stats();
        assertThat(stats.count()).isEqualTo(3);
        assertThat(stats.meanMillis()).isEqualTo(3_177 / 3.0);
        assertThat(stats.maxMillis()).isEqualTo(3_171).isGreaterThanOrEqualTo(stats.meanMillis());
        assertThat(stats.lastMillis()).isEqualTo(3);
    }
}
