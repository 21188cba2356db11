/** The local launcher: {@code up}, {@code down}, {@code status} without Docker. */
@NullMarked
package dev.lunchrush.localstack;

import org.jspecify.annotations.NullMarked;
