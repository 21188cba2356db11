/**
 * Where orders come from: the RabbitMQ queues, the order service's in-memory feed and the Kafka topic,
 * all subscribed at all times; poison is dead-lettered and counted.
 */
@NullMarked
package dev.lunchrush.analyticsdashboard.receiving;

import org.jspecify.annotations.NullMarked;
