/** What this service needs in the current act, as the readiness probe's {@code sources}. */
@NullMarked
package dev.lunchrush.reportreplayer.readiness;

import org.jspecify.annotations.NullMarked;
