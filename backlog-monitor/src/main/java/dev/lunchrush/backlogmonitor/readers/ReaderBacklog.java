package dev.lunchrush.backlogmonitor.readers;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * One reader's backlog as seen from outside at one poll.
 *
 * @param reader {@code kafka:<group>} or {@code rabbitmq:<queue>}
 * @param kind {@code kafka} or {@code rabbitmq}
 * @param unread events written and not yet read (Kafka: end offset minus the offset of the first record at or
 *     after the committed offset, 0 where only transaction markers follow it, summed over partitions; RabbitMQ:
 *     ready plus unacknowledged messages)
 * @param oldestUnreadAt the timestamp of the oldest unread event; null when nothing is unread or when
 *     it cannot be known (a RabbitMQ head message without timestamp, or only unacknowledged messages)
 * @param details per-partition or per-queue figures for the page and for whoever debugs
 */
public record ReaderBacklog(String reader, String kind, long unread, @Nullable Instant oldestUnreadAt,
        Map<String, Object> details) {

    /**
     * Seconds since the oldest unread event was written, at {@code now}: 0 when nothing is unread,
     * NaN when there is a backlog whose age is unknown. Computed when asked rather than at the poll,
     * so that a stopped reader's age grows with the wall clock between polls too.
     */
    public double ageSecondsAt(Instant now) {
        if (unread == 0) {
            return 0;
        }
        if (oldestUnreadAt == null) {
            return Double.NaN;
        }
        long millis = Duration.between(oldestUnreadAt, now).toMillis();
        // a writer's clock slightly ahead of ours must not give a negative age
        return Math.max(0, millis) / 1000.0;
    }
}
