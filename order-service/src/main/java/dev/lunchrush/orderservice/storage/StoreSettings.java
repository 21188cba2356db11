package dev.lunchrush.orderservice.storage;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How long the order service remembers what it keeps on disk ({@code lunchrush.store.*}).
 *
 * @param idempotencyRetention how long an Idempotency-Key's first answer is kept
 * @param importRetention how long an import's Idempotency-Key is kept: as long as the log keeps the orders it
 *     wrote (14 days), so that a backfill sent again writes nothing
 * @param notificationsRetention how long a done SMS task is remembered (a task delivered again within it is not sent
 *     again): as long as the log keeps orders (14 days), so that a reset of the SMS relay's group cannot reach an order
 *     whose SMS was forgotten; set shorter, the workers do not send a task whose order is older than it
 * @param compactionInterval how often expired entries are dropped from the files: the disk holds at most
 *     retention + this interval of entries
 */
@Validated
@ConfigurationProperties("lunchrush.store")
public record StoreSettings(
        @DefaultValue("24h") Duration idempotencyRetention,
        @DefaultValue("14d") Duration importRetention,
        @DefaultValue("14d") Duration notificationsRetention,
        @DefaultValue("1h") Duration compactionInterval) {
}
