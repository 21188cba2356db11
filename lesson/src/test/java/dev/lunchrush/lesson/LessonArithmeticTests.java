package dev.lunchrush.lesson;

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

    /**
     * The order service in a 40 MB heap (-Xmn6m, the serial collector with the feed's pages in the old generation),
     * as its {@code /api/stats} says at the switch into act 3: the feed's room is the old generation's less what is
     * alive, and the young generation is not the feed's.
     */
    @Test
    void theFeedsRoomIsTheOldGenerationsOverWhatIsAliveFromTheServicesHeapFigures() {
        long usedAfterGc = 26_800_200;
        long max = 41_353_216;
        long oldGenerationMax = 35_651_584;
        double room = LessonArithmetic.feedRoomBytes(usedAfterGc, max, oldGenerationMax);
        assertThat(room).isEqualTo(oldGenerationMax - usedAfterGc + 2 * 1_048_576.0);
        assertThat(LessonArithmetic.feedRoomBytes(usedAfterGc, max + 8_000_000, oldGenerationMax))
                .as("a larger young generation leaves the feed's room as it is").isEqualTo(room);
        // without an old generation's limit, the heap's; without the figures, none
        assertThat(LessonArithmetic.feedRoomBytes(usedAfterGc, max, -1)).isEqualTo(max - usedAfterGc + 2 * 1_048_576.0);
        assertThat(LessonArithmetic.feedRoomBytes(-1, max, oldGenerationMax)).isEqualTo(-1);
        assertThat(LessonArithmetic.feedRoomBytes(usedAfterGc, -1, -1)).isEqualTo(-1);

        // 300 orders/s, nobody pulling, ~950 bytes an event: the death at the asked rates from the start, and at the
        // growth a rush measured from the end of its warm-up (2 s in, the feed 0.53 MB by then, 297 KB/s)
        LessonArithmetic feed = new LessonArithmetic(300, 0, 0, Duration.ofMinutes(10), 1_000, room);
        assertThat(feed.secondsToFillBudget()).isCloseTo(room / 300_000, within(1e-9));
        assertThat(feed.secondsToFillBudget(2, 526_663, 297_000)).isCloseTo(2 + (room - 526_663) / 297_000, within(1e-9))
                .isCloseTo(37.1, within(0.1));
        assertThat(feed.secondsToFillBudget(2, 526_663, 0)).isInfinite();
        // a feed that grew past its room by then: due at once
        assertThat(feed.secondsToFillBudget(20, room + 1, 297_000)).isEqualTo(20.0);
    }

    @Test
    void differenceIsRelativeToThePrediction() {
        assertThat(LessonArithmetic.differencePercent(165, 150)).isCloseTo(10.0, within(1e-9));
        assertThat(LessonArithmetic.differencePercent(135, 150)).isCloseTo(-10.0, within(1e-9));
        assertThat(LessonArithmetic.differencePercent(1, 0)).isNaN();
    }
}
