package dev.lunchrush.events;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /orders}, as a client sends it. Its constraints are {@link OrderLimits}, declared here once:
 * the order service's intake checks them (Bean Validation) and its OpenAPI document shows them.
 */
public record OrderRequest(
        @NotBlank(message = OrderLimits.REQUIRED) @Size(min = 1, max = OrderLimits.MAX_ID_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS)
        String kitchenId,
        @NotBlank(message = OrderLimits.REQUIRED) @Size(min = 1, max = OrderLimits.MAX_ID_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS)
        String customerId,
        @NotNull(message = "is required") @Size(min = 1, max = OrderLimits.MAX_ITEMS, message = "must have {min} to {max} items")
        List<@Valid OrderItem> items,
        @NotBlank(message = OrderLimits.REQUIRED) @Size(min = 1, max = OrderLimits.MAX_ADDRESS_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS)
        String deliveryAddress,
        @Size(max = OrderLimits.MAX_NOTES_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS)
        @Nullable String notes) {
}
