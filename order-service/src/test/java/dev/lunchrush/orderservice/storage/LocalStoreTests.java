package dev.lunchrush.orderservice.storage;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store's promises: what is put is there after a reopen (a restart), an entry is forgotten
 * after its retention once compacted, and what one order leaves on disk is small.
 */
class LocalStoreTests {

    @TempDir
    Path directory;

    @Test
    void whatIsPutIsThereAfterAReopen() {
        byte[] key = "key-1".getBytes(StandardCharsets.US_ASCII);
        LocalStore store = new LocalStore(directory, new StoreSettings(Duration.ofHours(24), Duration.ofDays(14), Duration.ofHours(24), Duration.ofHours(1)));
        store.put(LocalStore.Family.IDEMPOTENCY, key, "answer".getBytes(StandardCharsets.US_ASCII));
        assertThat(store.get(LocalStore.Family.NOTIFICATIONS, key)).as("families are apart").isNull();
        store.destroy();

        LocalStore reopened = new LocalStore(directory, new StoreSettings(Duration.ofHours(24), Duration.ofDays(14), Duration.ofHours(24), Duration.ofHours(1)));
        try {
            assertThat(reopened.get(LocalStore.Family.IDEMPOTENCY, key)).asString(StandardCharsets.US_ASCII).isEqualTo("answer");
        }
        finally {
            reopened.destroy();
        }
    }

    @Test
    void anEntryIsForgottenAfterItsRetentionAndTheFilesShrink() {
        LocalStore store = new LocalStore(directory, new StoreSettings(Duration.ofSeconds(1), Duration.ofDays(14), Duration.ofHours(24), Duration.ofHours(1)));
        try {
            int keys = 20_000;
            for (int i = 0; i < keys; i++) {
                store.put(LocalStore.Family.IDEMPOTENCY, ("key-" + i).getBytes(StandardCharsets.US_ASCII), new byte[100]);
            }
            byte[] kept = "kept".getBytes(StandardCharsets.US_ASCII);
            store.put(LocalStore.Family.NOTIFICATIONS, kept, new byte[] {1});
            store.flush();
            long full = store.sizeOnDisk();
            Instant written = Instant.now();

            // the retention is in whole seconds: after two, every key has expired, and a compaction drops them
            await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ofMillis(2100)).untilAsserted(() -> {
                store.compact();
                assertThat(store.get(LocalStore.Family.IDEMPOTENCY, "key-0".getBytes(StandardCharsets.US_ASCII))).isNull();
                assertThat(store.get(LocalStore.Family.IDEMPOTENCY, ("key-" + (keys - 1)).getBytes(StandardCharsets.US_ASCII))).isNull();
            });
            assertThat(Duration.between(written, Instant.now())).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(store.get(LocalStore.Family.NOTIFICATIONS, kept)).as("the other family keeps its own retention").isNotNull();
            assertThat(store.sizeOnDisk()).isLessThan(full / 2);
        }
        finally {
            store.destroy();
        }
    }

    /**
     * One live order with an Idempotency-Key leaves its stored answer (key, request hash, status,
     * Location, body) and its SMS task's "done" entry: at most 200 bytes on disk together.
     */
    @Test
    void anOrderLeavesAtMost200BytesOnDisk() {
        LocalStore store = new LocalStore(directory, new StoreSettings(Duration.ofHours(24), Duration.ofDays(14), Duration.ofHours(24), Duration.ofHours(1)));
        try {
            long empty = store.sizeOnDisk();
            Random random = new Random(42);
            int orders = 50_000;
            Instant placedAt = Instant.parse("2026-12-01T12:20:00Z");
            for (int i = 0; i < orders; i++) {
                String orderId = UUID.randomUUID().toString();
                String body = "{\"orderId\":\"" + orderId + "\",\"placedAt\":\"" + placedAt.plusMillis(i * 3L)
                        + "\",\"kitchenId\":\"k" + (1 + random.nextInt(5)) + "\",\"act\":\"log\",\"sequence\":" + i + "}";
                byte[] hash = new byte[32];
                random.nextBytes(hash);
                byte[] location = ("/orders/" + orderId).getBytes(StandardCharsets.US_ASCII);
                byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
                ByteBuffer answer = ByteBuffer.allocate(32 + 2 + 2 + location.length + 2 + bodyBytes.length);
                answer.put(hash).putShort((short) 201).putShort((short) location.length).put(location)
                        .putShort((short) bodyBytes.length).put(bodyBytes);
                store.put(LocalStore.Family.IDEMPOTENCY, UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII),
                        answer.array());
                store.put(LocalStore.Family.NOTIFICATIONS, orderId.getBytes(StandardCharsets.US_ASCII),
                        ByteBuffer.allocate(20).putLong(placedAt.toEpochMilli()).put("sms-worker-1".getBytes(StandardCharsets.US_ASCII))
                                .array());
            }
            store.flush();
            store.compact();
            double perOrder = (double) (store.sizeOnDisk() - empty) / orders;
            System.out.printf("store: %.1f bytes on disk per order (%d orders)%n", perOrder, orders);
            assertThat(perOrder).isLessThanOrEqualTo(200);
        }
        finally {
            store.destroy();
        }
    }
}
