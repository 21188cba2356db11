/**
 * What the readers of the log share. Needs spring-kafka on the caller's class path (optional here).
 */
@NullMarked
package dev.lunchrush.support.kafka;

import org.jspecify.annotations.NullMarked;
