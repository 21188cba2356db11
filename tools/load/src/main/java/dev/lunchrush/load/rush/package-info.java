/** {@code rush}: the lunch rush, open-loop, with its live table and the lesson's arithmetic. */
@NullMarked
package dev.lunchrush.load.rush;

import org.jspecify.annotations.NullMarked;
