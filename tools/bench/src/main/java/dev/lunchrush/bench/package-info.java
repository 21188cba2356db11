/** {@code ./demo bench}: Lunch Rush measured side by side with the brokers' own tools, on the same machine, in one run. */
@NullMarked
package dev.lunchrush.bench;

import org.jspecify.annotations.NullMarked;
