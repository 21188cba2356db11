package dev.lunchrush.events;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/** One line of an order: a dish of the kitchen's menu and how many portions of it ({@link OrderLimits}). */
public record OrderItem(
        @NotBlank(message = OrderLimits.REQUIRED) @Size(min = 1, max = OrderLimits.MAX_ID_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS)
        String dish,
        // @NotNull says "required" to OpenAPI: a missing quantity never binds to the int, the intake names it first
        @NotNull(message = "is required") @Min(value = 1, message = "must be at least {value}") @Max(value = OrderLimits.MAX_QUANTITY, message = "must be at most {value}")
        int quantity) {
}
