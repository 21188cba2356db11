/**
 * The menu: kitchens and their dishes, from configuration.
 */
@NullMarked
package dev.lunchrush.orderservice.menu;

import org.jspecify.annotations.NullMarked;
