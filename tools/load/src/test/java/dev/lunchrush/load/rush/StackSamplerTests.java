package dev.lunchrush.load.rush;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class StackSamplerTests {

    private static final JsonNode KITCHEN = JsonMapper.builder().build().readTree("""
            {"received":{"kafka":86000,"own-queue":3578,"shared-queue":10971},"total":100549,"missing":5028}
            """);

    @Test
    void inTheSharedQueueActAReaderCountsWhatItGotFromTheSharedQueueOnly() {
        // what is left of act 2 in its own queue is not its share of act 1's queue
        assertThat(StackSampler.received("shared-queue", KITCHEN)).isEqualTo(10_971);
    }

    @Test
    void inTheOtherActsAReaderCountsEverySource() {
        assertThat(StackSampler.received("queue-per-reader", KITCHEN)).isEqualTo(100_549);
        assertThat(StackSampler.received("log", KITCHEN)).isEqualTo(100_549);
    }

    @Test
    void nothingIsCountedWhileTheActOrTheReaderIsUnknown() {
        assertThat(StackSampler.received("", KITCHEN)).isEqualTo(-1);
        assertThat(StackSampler.received("shared-queue", null)).isEqualTo(-1);
    }
}
