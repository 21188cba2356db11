/** The {@code demo} command. */
@NullMarked
package dev.lunchrush.demo;

import org.jspecify.annotations.NullMarked;
