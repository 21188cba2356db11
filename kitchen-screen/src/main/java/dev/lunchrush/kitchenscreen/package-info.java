@NullMarked
package dev.lunchrush.kitchenscreen;

import org.jspecify.annotations.NullMarked;
