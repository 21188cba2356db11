package dev.lunchrush.chaos;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * What a backfill scenario ({@code backfill-kafka-kill}, {@code backfill-kafka-freeze}) saw, and its verdict: the
 * backfill ended by itself with exit 0, the broker's fault met the backfill under way, and the day replayed
 * afterwards holds exactly the backfilled orders more than before, not one more or less; the log between the marks
 * (read committed) holds them too, each once.
 *
 * @param orders the orders the backfill was asked for
 * @param exitCode the backfill's exit code; {@code -1} when it did not end within its bound
 * @param error what the backfill said when it failed, else empty
 * @param fault what was done to the broker, and when (for the line: "broker killed with 5,200 records of it in the
 *     log")
 * @param faultMissed why the fault did not meet the backfill as it should have; empty when it did
 * @param dayBefore the orders of the replayed day before the backfill
 * @param dayAfter the orders of the replayed day after it
 * @param inLog orders in the log between the marks
 * @param distinctInLog distinct order ids among them
 * @param batchesSentAgain attempts of the backfill that followed a failed one
 */
record BackfillOutcome(LocalDate day, long orders, int exitCode, String error, String fault, String faultMissed,
        long dayBefore, long dayAfter, long inLog, long distinctInLog, long batchesSentAgain) {

    long added() {
        return dayAfter - dayBefore;
    }

    List<String> failures() {
        List<String> failures = new ArrayList<>();
        if (exitCode != 0) {
            failures.add(exitCode < 0 ? "the backfill did not finish: " + error
                    : "the backfill exited " + exitCode + (error.isEmpty() ? "" : ": " + error));
        }
        if (!faultMissed.isEmpty()) {
            failures.add(faultMissed);
        }
        if (added() > orders) {
            failures.add("the replayed " + day + " holds " + added() + " orders more than before, " + (added() - orders)
                    + " more than the " + orders + " backfilled: orders written twice");
        }
        else if (added() < orders) {
            failures.add("the replayed " + day + " holds " + added() + " orders more than before, " + (orders - added())
                    + " fewer than the " + orders + " backfilled");
        }
        if (inLog != orders || distinctInLog != inLog) {
            failures.add("the log between the marks holds " + inLog + " orders (" + distinctInLog + " distinct), "
                    + orders + " were backfilled");
        }
        return failures;
    }

    /** The scenario's line: what was checked, with the figures. */
    String summary() {
        return ("backfill of %,d orders of %s %s; %s; replayed day %,d → %,d orders (+%,d); "
                + "log between the marks %,d orders, %,d distinct; %d batches sent again").formatted(orders, day,
                        exitCode == 0 ? "exited 0" : exitCode < 0 ? "did not finish" : "exited " + exitCode, fault,
                        dayBefore, dayAfter, added(), inLog, distinctInLog, batchesSentAgain);
    }
}
