/**
 * REST intake of orders: validation, the order event, the write to the current act's outputs.
 */
@NullMarked
package dev.lunchrush.orderservice.intake;

import org.jspecify.annotations.NullMarked;
