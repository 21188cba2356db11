/**
 * {@code rush}: the lunch rush, open-loop, with its live table; the lesson's arithmetic and each act's closing lines
 * are {@code dev.lunchrush.lesson}'s.
 */
@NullMarked
package dev.lunchrush.load.rush;

import org.jspecify.annotations.NullMarked;
