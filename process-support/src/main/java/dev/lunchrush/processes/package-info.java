/**
 * How each piece of the stack runs as a process: Kafka from its jars, a service from its jar, and how to
 * tell that it answers. {@code ./demo up} and the tests start the same command lines from here.
 */
@NullMarked
package dev.lunchrush.processes;

import org.jspecify.annotations.NullMarked;
