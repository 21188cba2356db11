package dev.lunchrush.load.backfill;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.random.RandomGenerator;

/**
 * The parameters a backfill's requests follow from, and nothing else: the seed, the zone, the orders per day, the
 * batch size and a salt ({@code --again}; empty otherwise). Each day's orders are drawn from a generator seeded by
 * the seed and the day alone, so a day's batches are the same whichever other days the run covers; each batch's
 * {@code Idempotency-Key} is a name-based UUID of all the parameters, the day and the batch's index. The same run
 * again sends the same bodies under the same keys, which the order service answers from its stored answers
 * without writing; a salt gives every batch a new key, so that the same orders are written once more.
 */
public record BackfillRun(long seed, ZoneId zone, int ordersPerDay, int batchSize, String salt) {

    public static BackfillRun of(long seed, ZoneId zone, int ordersPerDay, int batchSize) {
        return new BackfillRun(seed, zone, ordersPerDay, batchSize, "");
    }

    /** The same orders under other keys. */
    BackfillRun salted(String salt) {
        return new BackfillRun(seed, zone, ordersPerDay, batchSize, salt);
    }

    /** The key of the day's batch number {@code batchIndex} (0 for the first). */
    public String idempotencyKey(LocalDate day, int batchIndex) {
        String name = String.join("|", "lunchrush-backfill", Long.toString(seed), zone.getId(), day.toString(),
                Integer.toString(ordersPerDay), Integer.toString(batchSize), Integer.toString(batchIndex), salt);
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** The generator that the day's hours and orders are drawn from: the same for the same seed and day. */
    RandomGenerator random(LocalDate day) {
        String name = "lunchrush-backfill-day|" + seed + "|" + day;
        return new SplittableRandom(UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).getMostSignificantBits());
    }
}
