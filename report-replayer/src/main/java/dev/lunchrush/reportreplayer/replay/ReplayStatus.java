package dev.lunchrush.reportreplayer.replay;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A replay as {@code GET /api/replays/{id}} shows it (docs/ARCHITECTURE.md), with a few more figures.
 *
 * @param read records read from the log so far
 * @param expected records between the day's first offset and the log's end when the replay started
 * @param ratePerSecond records read per second, averaged since the start
 * @param secondsLeft (expected − read) / rate; null until a rate is known, 0 once finished
 * @param percent read of expected, in percent
 * @param ordersFound orders of the day counted so far
 * @param poisonRecords records of the day's time range that were not order events (skipped)
 * @param elapsedMillis time since the start, or the run's duration once finished
 * @param error why a FAILED replay failed
 * @param report where the report is, once DONE
 */
record ReplayStatus(String id, String date, String zone, String state, long read, long expected,
        double ratePerSecond, @Nullable Double secondsLeft, double percent, long ordersFound, long poisonRecords,
        Instant startedAt, @Nullable Instant finishedAt, long elapsedMillis, @Nullable String error,
        @Nullable String report) {
}
