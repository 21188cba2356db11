/** {@code backfill}: past days of orders into the log, with their real timestamps. */
@NullMarked
package dev.lunchrush.load.backfill;

import org.jspecify.annotations.NullMarked;
