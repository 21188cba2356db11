/** {@code ./demo chaos}: faults under a running rush, and the log as the oracle. */
@NullMarked
package dev.lunchrush.chaos;

import org.jspecify.annotations.NullMarked;
