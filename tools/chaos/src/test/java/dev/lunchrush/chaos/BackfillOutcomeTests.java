package dev.lunchrush.chaos;

import java.time.LocalDate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The verdict of the backfill scenarios: the replayed day holds exactly the backfilled orders more, and no other, and
 * the fault met the backfill.
 */
class BackfillOutcomeTests {

    private static final LocalDate DAY = LocalDate.of(2026, 12, 1);

    private static BackfillOutcome outcome(int exit, long writtenAtKill, long dayAfter, long inLog, long distinct) {
        return new BackfillOutcome(DAY, 20_000, exit, exit == 0 ? "" : "backfill stopped at batch 7 of 20",
                writtenAtKill < 0 ? "broker killed with the backfill already over"
                        : "broker killed with %,d records of it in the log".formatted(writtenAtKill),
                writtenAtKill < 0 ? "the backfill was over before the broker was killed: the fault did not meet it" : "",
                51_000, dayAfter, inLog, distinct, 3);
    }

    @Test
    void exactlyTheBackfilledOrdersMoreAfterAKillInTheMiddlePasses() {
        BackfillOutcome outcome = outcome(0, 5_200, 71_000, 20_000, 20_000);

        assertThat(outcome.failures()).isEmpty();
        assertThat(outcome.summary()).isEqualTo("backfill of 20,000 orders of 2026-12-01 exited 0; broker killed with 5,200 "
                + "records of it in the log; replayed day 51,000 → 71,000 orders (+20,000); log between the marks 20,000 "
                + "orders, 20,000 distinct; 3 batches sent again");
    }

    @Test
    void aBatchWrittenTwiceFails() {
        assertThat(outcome(0, 5_200, 72_000, 21_000, 21_000).failures()).containsExactly(
                "the replayed 2026-12-01 holds 21000 orders more than before, 1000 more than the 20000 backfilled: orders "
                        + "written twice",
                "the log between the marks holds 21000 orders (21000 distinct), 20000 were backfilled");
    }

    @Test
    void aBatchMissingFails() {
        assertThat(outcome(0, 5_200, 70_000, 19_000, 19_000).failures()).contains(
                "the replayed 2026-12-01 holds 19000 orders more than before, 1000 fewer than the 20000 backfilled");
    }

    @Test
    void anOrderTwiceInTheLogFailsEvenWhenTheCountIsRight() {
        assertThat(outcome(0, 5_200, 71_000, 20_000, 19_999).failures())
                .containsExactly("the log between the marks holds 20000 orders (19999 distinct), 20000 were backfilled");
    }

    @Test
    void aBackfillThatFailedOrEndedBeforeTheKillFails() {
        assertThat(outcome(1, 5_200, 71_000, 20_000, 20_000).failures())
                .containsExactly("the backfill exited 1: backfill stopped at batch 7 of 20");
        assertThat(outcome(0, -1, 71_000, 20_000, 20_000).failures())
                .containsExactly("the backfill was over before the broker was killed: the fault did not meet it");
        assertThat(outcome(-1, 5_200, 71_000, 20_000, 20_000).failures()).hasSize(1)
                .allSatisfy(failure -> assertThat(failure).startsWith("the backfill did not finish"));
    }

    @Test
    void freezesThatAllMetACommitAndTheDayExactPass() {
        BackfillOutcome outcome = new BackfillOutcome(DAY, 50_000, 0, "", "broker frozen 3 × 15 s at a batch's commit", "",
                51_000, 101_000, 50_000, 50_000, 2);

        assertThat(outcome.failures()).isEmpty();
        assertThat(outcome.summary()).isEqualTo("backfill of 50,000 orders of 2026-12-01 exited 0; broker frozen 3 × 15 s "
                + "at a batch's commit; replayed day 51,000 → 101,000 orders (+50,000); log between the marks 50,000 orders, "
                + "50,000 distinct; 2 batches sent again");
    }

    @Test
    void freezesThatDidNotAllMeetACommitFailEvenWhenTheDayIsExact() {
        BackfillOutcome outcome = new BackfillOutcome(DAY, 50_000, 0, "", "broker frozen 2 × 15 s at a batch's commit",
                "only 2 of 3 freezes met a batch's commit: the backfill ended first", 51_000, 101_000, 50_000, 50_000, 0);

        assertThat(outcome.failures()).containsExactly("only 2 of 3 freezes met a batch's commit: the backfill ended first");
    }

    @Test
    void theScenariosAreNamedLikeTheOthers() {
        assertThat(Scenario.fromId("backfill-kafka-kill")).isEqualTo(Scenario.BACKFILL_KAFKA_KILL);
        assertThat(Scenario.fromId("backfill-kafka-freeze")).isEqualTo(Scenario.BACKFILL_KAFKA_FREEZE);
        assertThat(Scenario.ids()).endsWith("backfill-kafka-kill, backfill-kafka-freeze, hostile-clients");
        assertThat(Scenario.BACKFILL_KAFKA_KILL.oracle).isEqualTo(Scenario.Oracle.REPLAY);
        assertThat(Scenario.BACKFILL_KAFKA_FREEZE.oracle).isEqualTo(Scenario.Oracle.REPLAY);
    }
}
