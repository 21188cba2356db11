package dev.lunchrush.orderservice;

import java.nio.file.Path;
import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The order service's own settings ({@code lunchrush.*}).
 *
 * @param dataDir where the act, the idempotency keys and the notification log are kept
 * @param outputTimeout how long an order waits for the broker's confirm or ack before it gets 503
 * @param maxOrderBody the largest {@code POST /orders} body; larger gets 413
 * @param maxImportBody the largest import body (1000 orders of about 1 KB fit)
 * @param maxImportOrders the most orders one import call may carry
 * @param recentOrders how many recent orders {@code GET /orders/{id}} remembers
 */
@Validated
@ConfigurationProperties("lunchrush")
public record OrderServiceProperties(
        @DefaultValue("data/order-service") Path dataDir,
        @DefaultValue("5s") Duration outputTimeout,
        @DefaultValue("64KB") DataSize maxOrderBody,
        @DefaultValue("4MB") DataSize maxImportBody,
        @DefaultValue("1000") @Min(1) @Max(10_000) int maxImportOrders,
        @DefaultValue("1000") @Min(1) int recentOrders) {
}
