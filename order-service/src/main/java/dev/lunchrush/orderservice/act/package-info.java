/**
 * The current act of the lesson, kept in memory and in the data folder.
 */
@NullMarked
package dev.lunchrush.orderservice.act;

import org.jspecify.annotations.NullMarked;
