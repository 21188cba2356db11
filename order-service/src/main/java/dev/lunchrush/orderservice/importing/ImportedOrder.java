package dev.lunchrush.orderservice.importing;

import java.time.Instant;

import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;

import dev.lunchrush.events.OrderRequest;

/**
 * One element of {@code POST /admin/orders/import}'s array, as the OpenAPI document shows it: an order as
 * {@code POST /orders} takes it ({@link OrderRequest}, whose constraints are declared there once) and when it was
 * placed. The import checks each element by those constraints, and the placedAt against its clock and the log's
 * retention ({@link ImportController}).
 *
 * @param placedAt ISO-8601 with an offset, in the past and within the log's retention
 */
@Schema(allOf = OrderRequest.class)
record ImportedOrder(@NotNull(message = "is required") Instant placedAt) {
}
