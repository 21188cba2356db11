/**
 * Where orders come from: the RabbitMQ queues of acts 1 to 3 and the Kafka topic of act 4, all
 * subscribed at all times; poison is dead-lettered and counted.
 */
@NullMarked
package dev.lunchrush.kitchenscreen.receiving;

import org.jspecify.annotations.NullMarked;
