/** {@code replay}: a past day read again from the log by the report replayer, and its report. */
@NullMarked
package dev.lunchrush.load.replay;

import org.jspecify.annotations.NullMarked;
