/**
 * What the RabbitMQ readers share. Needs spring-rabbit on the caller's class path (optional here).
 */
@NullMarked
package dev.lunchrush.support.rabbit;

import org.jspecify.annotations.NullMarked;
