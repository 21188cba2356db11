package dev.lunchrush.load.rush;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.lunchrush.lesson.LessonArithmetic;
import dev.lunchrush.lesson.Snapshot;

/** The feed's room from a rush's start, as the prediction takes it, when the feed already holds events. */
class RushBudgetTests {

    /** Act 3 with 20,000 events (19 MB) in the feed; 60 MB alive after the last collection of a 136 MB heap (old generation 126 MB). */
    private static Snapshot feedHolding(long bytes, long events) {
        Snapshot.OrderServiceStats stats = new Snapshot.OrderServiceStats("memory-feed", "unbounded", "run", events,
                events, bytes, 0, 0, 0, 80_000_000, 60_000_000, 136_000_000, 126_000_000);
        return new Snapshot(0, 0, 0, 0, 0, stats, 0, 0, 0, 150, events, 0);
    }

    @Test
    void theMeasuredRoomAlreadyLeavesOutWhatTheFeedHolds() {
        // the old generation less what is alive, the feed's 19 MB among it (not taken off a second time), and two pages
        assertThat(Rush.budgetBytes(null, feedHolding(19_000_000, 20_000))).isEqualTo(126_000_000.0 - 60_000_000 + 2 * 1_048_576);
    }

    @Test
    void anAskedBudgetHasWhatTheFeedHoldsTakenOff() {
        assertThat(Rush.budgetBytes(100.0, feedHolding(19_000_000, 20_000))).isEqualTo(81_000_000.0);
        assertThat(Rush.budgetBytes(100.0, feedHolding(0, 0))).isEqualTo(100_000_000.0);
    }

    @Test
    void withoutTheServicesFiguresTheLessonsBudgetIsTaken() {
        Snapshot silent = new Snapshot(0, 0, 0, 0, 0, null, -1, -1, -1, -1, -1, -1);
        assertThat(Rush.budgetBytes(null, silent)).isEqualTo(LessonArithmetic.LESSON_BUDGET_BYTES);
    }
}
