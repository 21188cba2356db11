package dev.lunchrush.load.rush;

import java.time.Duration;
import java.time.LocalTime;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LessonArithmeticTests {

    private final LessonArithmetic lesson = LessonArithmetic.lesson(1);

    @Test
    void surplusIs150EventsPerSecond() {
        assertThat(lesson.surplusRate()).isEqualTo(150.0);
    }

    @Test
    void memoryGrowsBy150KilobytesPerSecond() {
        assertThat(lesson.memoryGrowthBytesPerSecond()).isEqualTo(150_000.0);
    }

    @Test
    void budgetOf100MegabytesIsFullAfterAbout667SecondsNear1231() {
        assertThat(lesson.secondsToFillBudget()).isCloseTo(666.7, within(0.1));
        LocalTime death = RateProfile.LUNCH_START.plusSeconds(Math.round(lesson.secondsToFillBudget()));
        assertThat(death).isEqualTo(LocalTime.of(12, 31, 7));
    }

    @Test
    void backlogIs135000EventsAt1235() {
        assertThat(lesson.backlogAtEndOfPeak()).isEqualTo(135_000.0);
    }

    @Test
    void anEventAppendedAt1235WaitsNineMinutes() {
        assertThat(lesson.secondsWaitForEventAppendedAtEndOfPeak()).isEqualTo(540.0);
    }

    @Test
    void spareCapacityIs150AndTheReaderCatchesUpBy1250() {
        assertThat(lesson.spareCapacity()).isEqualTo(150.0);
        assertThat(lesson.secondsToCatchUp()).isEqualTo(900.0);
        LocalTime caughtUp = LocalTime.of(12, 35).plusSeconds(Math.round(lesson.secondsToCatchUp()));
        assertThat(caughtUp).isEqualTo(LocalTime.of(12, 50));
    }

    @Test
    void speedMultipliesRatesAndDividesTimesButKeepsTheBacklogInEvents() {
        LessonArithmetic fast = LessonArithmetic.lesson(10);
        assertThat(fast.surplusRate()).isEqualTo(1_500.0);
        assertThat(fast.memoryGrowthBytesPerSecond()).isEqualTo(1_500_000.0);
        assertThat(fast.secondsToFillBudget()).isCloseTo(66.67, within(0.01));
        assertThat(fast.backlogAtEndOfPeak()).isEqualTo(135_000.0);
        assertThat(fast.secondsWaitForEventAppendedAtEndOfPeak()).isEqualTo(54.0);
        assertThat(fast.spareCapacity()).isEqualTo(1_500.0);
        assertThat(fast.secondsToCatchUp()).isEqualTo(90.0);
    }

    @Test
    void aReaderFasterThanTheRushHasNoBacklogAndNeverFillsTheBudget() {
        LessonArithmetic easy = new LessonArithmetic(200, 250, 100, Duration.ofMinutes(15), 1_000, 100_000_000);
        assertThat(easy.backlogAtEndOfPeak()).isZero();
        assertThat(easy.secondsToFillBudget()).isInfinite();
    }

    @Test
    void aReaderThatStartsBehindEndsTheRushThatMuchFurtherBehind() {
        // the lesson at speed 10, the dashboard 43,368 events behind before the first order (an earlier rush's)
        LessonArithmetic behind = new LessonArithmetic(4_000, 2_500, 1_000, Duration.ofSeconds(90), 1_000, 100_000_000,
                43_368);
        assertThat(behind.surplusRate()).isEqualTo(1_500.0);
        assertThat(behind.backlogAtEndOfPeak()).isEqualTo(178_368.0);
        assertThat(behind.secondsWaitForEventAppendedAtEndOfPeak()).isCloseTo(71.35, within(0.01));
        assertThat(behind.secondsToCatchUp()).isCloseTo(118.91, within(0.01));
        // the budget is the feed's room from the start, whatever it held then (Rush.budgetBytes): 100 MB at 1.5 MB/s
        assertThat(behind.secondsToFillBudget()).isCloseTo(66.67, within(0.01));
    }

    @Test
    void differenceIsRelativeToThePrediction() {
        assertThat(LessonArithmetic.differencePercent(165, 150)).isCloseTo(10.0, within(1e-9));
        assertThat(LessonArithmetic.differencePercent(135, 150)).isCloseTo(-10.0, within(1e-9));
        assertThat(LessonArithmetic.differencePercent(1, 0)).isNaN();
    }
}
