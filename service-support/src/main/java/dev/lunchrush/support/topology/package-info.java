/**
 * The declarations of Lunch Rush's queues, exchanges and topics that more than one service makes,
 * defined once. Needs spring-amqp or spring-kafka on the caller's class path (optional here).
 */
@NullMarked
package dev.lunchrush.support.topology;

import org.jspecify.annotations.NullMarked;
