/**
 * The outputs of the acts: RabbitMQ with publisher confirms and the Kafka log with acks=all.
 */
@NullMarked
package dev.lunchrush.orderservice.publishing;

import org.jspecify.annotations.NullMarked;
