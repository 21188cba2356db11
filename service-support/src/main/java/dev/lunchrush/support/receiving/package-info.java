/**
 * What the readers of the orders (the kitchen screen, the analytics dashboard) declare alike: the RabbitMQ
 * queues they consume and the Kafka topics and error handling of the log. Each reader extends these
 * configurations with what is its own. Needs spring-rabbit, spring-kafka and spring-boot-kafka on the
 * caller's class path (optional here).
 */
@NullMarked
package dev.lunchrush.support.receiving;

import org.jspecify.annotations.NullMarked;
