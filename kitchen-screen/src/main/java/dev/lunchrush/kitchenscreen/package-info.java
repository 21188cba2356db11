/**
 * The kitchen screen: every order it is given, per kitchen, live; and the orders that never reached it.
 */
@NullMarked
package dev.lunchrush.kitchenscreen;

import org.jspecify.annotations.NullMarked;
