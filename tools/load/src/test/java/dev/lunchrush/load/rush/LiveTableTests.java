package dev.lunchrush.load.rush;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.lesson.Snapshot;

import static org.assertj.core.api.Assertions.assertThat;

class LiveTableTests {

    private static final RateProfile PROFILE = RateProfile.constant(100, Duration.ofSeconds(20), 1);

    private static Snapshot at(int second) {
        return new Snapshot(TimeUnit.SECONDS.toNanos(second), 100L * second, 0, 0, 0, null, 100L * second, 0,
                100L * second, 250, 0, 0);
    }

    /** {@code count} latencies of {@code millis} each. */
    private static Histogram latencies(int count, long millis) {
        Histogram histogram = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
        histogram.recordValueWithCount(TimeUnit.MILLISECONDS.toMicros(millis), count);
        return histogram;
    }

    /** The p99 column of each row printed (the fourth column). */
    private static List<String> p99s(StringWriter text) {
        return text.toString().lines().skip(1).filter(line -> !line.isBlank()).map(line -> line.trim().split("\\s+")[3]).toList();
    }

    @Test
    void aRowsP99IsOfTheOrdersAcceptedSinceTheRowBeforeItNotOfTheWholeRush() {
        StringWriter text = new StringWriter();
        LiveTable table = new LiveTable(new PrintWriter(text), false, 3);
        table.header();
        assertThat(text.toString()).contains("p99 ms");
        // a row every third second: second 1 alone, then seconds 2-4, 5-7; then the final row (8)
        table.update(at(0), at(1), PROFILE, List.of(), latencies(100, 5));
        table.update(at(0), at(2), PROFILE, List.of(), latencies(100, 5));
        table.update(at(0), at(3), PROFILE, List.of(), latencies(90, 4));
        table.update(at(0), at(4), PROFILE, List.of(), latencies(10, 900));
        table.update(at(0), at(5), PROFILE, List.of(), latencies(100, 20));
        table.update(at(0), at(6), PROFILE, List.of(), new Histogram(3));
        table.update(at(0), at(7), PROFILE, List.of(), new Histogram(3));
        table.finish(at(0), at(8), PROFILE, List.of(), new Histogram(3));

        // 5 ms; then the 900 ms of the fourth second (10 of the 200 orders since the first row, 5%);
        // then 20 ms; then no order since the row before
        assertThat(p99s(text)).containsExactly("5", "900", "20", "-");
    }
}
