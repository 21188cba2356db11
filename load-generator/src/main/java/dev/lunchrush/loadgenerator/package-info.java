/** The {@code demo} command. */
@NullMarked
package dev.lunchrush.loadgenerator;

import org.jspecify.annotations.NullMarked;
