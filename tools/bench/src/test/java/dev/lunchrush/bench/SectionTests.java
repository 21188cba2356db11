package dev.lunchrush.bench;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The sections by name, and the table's cells the sections share. */
class SectionTests {

    @Test
    void sectionsAreNamedInAnyCase() {
        assertThat(Section.named(" e2e ")).isEqualTo(Section.E2E);
        assertThat(Section.named("CPU")).isEqualTo(Section.CPU);
        assertThatThrownBy(() -> Section.named("disk")).hasMessage(
                "no section 'disk'; the sections are: cpu, intake, rabbitmq, e2e, memory, replay, scale");
    }

    @Test
    void theSeedsVolumeRunsWhenAskedOrInASmokeRun() {
        assertThat(Section.byDefault(false)).doesNotContain(Section.SCALE).contains(Section.CPU, Section.REPLAY);
        assertThat(Section.byDefault(true)).containsExactly(Section.values());
    }

    @Test
    void ratiosHaveThreeDecimalsBelowATenthAndNoneWithoutAReference() {
        assertThat(BenchTable.ratioCell(BenchTable.ratio(4000, 6000))).isEqualTo("0.67");
        assertThat(BenchTable.ratioCell(BenchTable.ratio(400, 90_000))).isEqualTo("0.004");
        assertThat(BenchTable.ratio(400, 0)).isZero();
    }

    @Test
    void aSearchIsItsBestStepOrThatNoneHeld() {
        RateSearch.Step step = new RateSearch.Step(4000, 3990, 39_900, 0, 0, 1.2, 8.4, 20.5, true);
        assertThat(BenchTable.rateCell(new RateSearch.Outcome("intake", List.of(step), step)))
                .isEqualTo("4,000/s, p50 1.2 / p99 8.4 / p99.9 20.5 ms");
        assertThat(BenchTable.rateCell(new RateSearch.Outcome("intake", List.of(), null))).isEqualTo("no step held");
    }
}
