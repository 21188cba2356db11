/**
 * Act 4's side task: the SMS that must be sent once, on a RabbitMQ work queue with competing workers.
 */
@NullMarked
package dev.lunchrush.orderservice.notifications;

import org.jspecify.annotations.NullMarked;
