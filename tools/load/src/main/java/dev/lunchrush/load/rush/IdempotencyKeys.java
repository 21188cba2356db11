package dev.lunchrush.load.rush;

import java.security.SecureRandom;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * The orders' idempotency keys: random (version 4) UUIDs, from a generator seeded once from {@link SecureRandom},
 * so that a key costs no read of the system's entropy source.
 */
final class IdempotencyKeys {

    private final SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());

    synchronized String next() {
        long most = (random.nextLong() & ~0xF000L) | 0x4000L;
        long least = (random.nextLong() & ~(0xC000_0000_0000_0000L)) | 0x8000_0000_0000_0000L;
        return new UUID(most, least).toString();
    }
}
