/**
 * An order's trace across the services: the order service's span of each order, the context carried in Kafka
 * headers and AMQP properties, and each reader's span of the orders it takes ({@link OrderTraces}).
 */
@NullMarked
package dev.lunchrush.support.tracing;

import org.jspecify.annotations.NullMarked;
