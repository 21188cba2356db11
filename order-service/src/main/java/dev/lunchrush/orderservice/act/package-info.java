/**
 * The lesson's acts as the order service plays them: one {@link dev.lunchrush.orderservice.act.ActOutput} per act
 * (where it writes an order, what it needs to be ready, what it does when entered), picked by
 * {@link dev.lunchrush.orderservice.act.Acts}; and the current act, kept in memory and in the data folder.
 */
@NullMarked
package dev.lunchrush.orderservice.act;

import org.jspecify.annotations.NullMarked;
