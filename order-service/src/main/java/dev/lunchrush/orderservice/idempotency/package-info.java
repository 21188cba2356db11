/**
 * Idempotency-Key: a retried request gets the first answer, also after a restart.
 */
@NullMarked
package dev.lunchrush.orderservice.idempotency;

import org.jspecify.annotations.NullMarked;
