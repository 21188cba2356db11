package dev.lunchrush.reportreplayer.replay;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayRunnerTests {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);
    private static final TopicPartition P2 = new TopicPartition("orders", 2);

    @Test
    void eachReaderGetsAShareOfTheRecordsAsEvenAsThePartitionsAllow() {
        Map<TopicPartition, ReplayPlan.Range> ranges = ranges(300, 500, 300);
        assertThat(ReplayRunner.shares(ranges, 3)).containsExactly(List.of(P1), List.of(P0), List.of(P2));
        assertThat(ReplayRunner.shares(ranges, 2)).containsExactly(List.of(P1), List.of(P0, P2));
        assertThat(ReplayRunner.shares(ranges, 1)).containsExactly(List.of(P1, P0, P2));
        assertThat(ReplayRunner.shares(ranges, 8)).hasSize(3);
    }

    @Test
    void partitionsWithNothingToReadGetNoReader() {
        assertThat(ReplayRunner.shares(ranges(0, 400, 0), 3)).containsExactly(List.of(P1));
        assertThat(ReplayRunner.shares(ranges(0, 0, 0), 3)).isEmpty();
    }

    private static Map<TopicPartition, ReplayPlan.Range> ranges(long p0, long p1, long p2) {
        Map<TopicPartition, ReplayPlan.Range> ranges = new LinkedHashMap<>();
        ranges.put(P0, new ReplayPlan.Range(1_000, 1_000 + p0));
        ranges.put(P1, new ReplayPlan.Range(2_000, 2_000 + p1));
        ranges.put(P2, new ReplayPlan.Range(0, p2));
        return ranges;
    }
}
