package dev.lunchrush.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.lunchrush.localstack.access.DemoException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The benchmark's arithmetic: the Kafka tools' output as they print it, histogram percentiles, the heap's trend. */
class BenchFiguresTests {

    @Test
    void readsTheProducerToolsSummaryNotItsProgressLines() {
        KafkaTools.ProducerFigures figures = KafkaTools.producerSummary(List.of(
                "103456 records sent, 20678.3 records/sec (19.72 MB/sec), 1210.3 ms avg latency, 1712.0 ms max latency.",
                "500000 records sent, 32409.1 records/sec (29.64 MB/sec), 865.52 ms avg latency, 1402.00 ms max latency, "
                        + "865 ms 50th, 1201 ms 95th, 1339 ms 99th, 1398 ms 99.9th."));

        assertThat(figures.records()).isEqualTo(500_000);
        assertThat(figures.recordsPerSecond()).isEqualTo(32409.1);
        assertThat(figures.p50Millis()).isEqualTo(865);
        assertThat(figures.p99Millis()).isEqualTo(1339);
        assertThat(figures.p999Millis()).isEqualTo(1398);
        assertThatThrownBy(() -> KafkaTools.producerSummary(List.of("Exception in thread main")))
                .isInstanceOf(DemoException.class).hasMessageContaining("no summary");
    }

    @Test
    void readsTheConsumerToolsFiguresUnderItsHeader() {
        KafkaTools.ConsumerFigures figures = KafkaTools.consumerSummary(List.of(
                "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, "
                        + "fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec",
                "2026-11-29 16:10:11:123, 2026-11-29 16:10:15:456, 36.6, 8.45, 38434, 8870.5, 3105, 1228, 29.8, 31298.0"));

        assertThat(figures.records()).isEqualTo(38_434);
        assertThat(figures.recordsPerSecond()).isEqualTo(8870.5);
        assertThat(figures.fetchRecordsPerSecond()).isEqualTo(31298.0);
    }

    @Test
    void percentilesAreTheUpperBoundOfTheirBucketBetweenTwoScrapes() {
        TreeMap<Double, Long> before = new TreeMap<>();
        before.put(0.005, 10L);
        before.put(0.010, 10L);
        before.put(0.050, 10L);
        before.put(Double.POSITIVE_INFINITY, 10L);
        TreeMap<Double, Long> after = new TreeMap<>();
        after.put(0.005, 60L);   // 50 new orders within 5 ms
        after.put(0.010, 108L);  // 48 more within 10 ms
        after.put(0.050, 110L);  // 2 more within 50 ms
        after.put(Double.POSITIVE_INFINITY, 110L);

        LatencyBuckets delta = new LatencyBuckets(after).minus(new LatencyBuckets(before));

        assertThat(delta.count()).isEqualTo(100);
        assertThat(delta.percentileMillis(50)).isEqualTo(5.0);
        assertThat(delta.percentileMillis(98)).isEqualTo(10.0);
        assertThat(delta.percentileMillis(99)).isEqualTo(50.0);
        assertThat(new LatencyBuckets(new TreeMap<>()).percentileMillis(99)).isZero();
    }

    @Test
    void theHeapTrendIsTheSlopeOfItsSecondHalf() {
        List<double[]> samples = new ArrayList<>();
        for (int second = 0; second <= 120; second += 2) {
            // a warm-up bump, then 30 MB growing by 1 MB a minute
            samples.add(new double[] {second, second < 20 ? 45 : 30 + second / 60.0});
        }
        HeapTrend trend = HeapTrend.of(samples);

        assertThat(trend.slopeMbPerMinute()).isCloseTo(1.0, within(1e-6));
        assertThat(trend.firstMb()).isEqualTo(45);
        assertThat(trend.maxMb()).isEqualTo(45);
        assertThat(trend.lastMb()).isCloseTo(32, within(1e-9));
        assertThat(HeapTrend.of(List.of()).samples()).isZero();
    }
}
