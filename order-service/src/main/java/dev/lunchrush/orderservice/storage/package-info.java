/**
 * The order service's own memory on disk: idempotency keys and the SMS tasks done, each kept for a
 * bounded time.
 */
@NullMarked
package dev.lunchrush.orderservice.storage;

import org.jspecify.annotations.NullMarked;
