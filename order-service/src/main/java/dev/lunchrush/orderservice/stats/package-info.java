/**
 * The order service's figures for the other services and the load generator.
 */
@NullMarked
package dev.lunchrush.orderservice.stats;

import org.jspecify.annotations.NullMarked;
