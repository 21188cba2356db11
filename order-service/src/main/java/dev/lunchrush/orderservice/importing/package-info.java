/**
 * The admin import of past orders into the log, with their real timestamps.
 */
@NullMarked
package dev.lunchrush.orderservice.importing;

import org.jspecify.annotations.NullMarked;
