/**
 * Act 3, {@code memory-feed}, on the packaged services: the unbounded feed's death, timed against its arithmetic,
 * and the bounded strategies that outlive it with a flat heap.
 */
@NullMarked
package dev.lunchrush.scenarios.memoryfeed;

import org.jspecify.annotations.NullMarked;
