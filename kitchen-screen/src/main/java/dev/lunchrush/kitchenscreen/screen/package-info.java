/**
 * What the screen shows: orders per kitchen, placed against reached, the missing ones, latency.
 */
@NullMarked
package dev.lunchrush.kitchenscreen.screen;

import org.jspecify.annotations.NullMarked;
