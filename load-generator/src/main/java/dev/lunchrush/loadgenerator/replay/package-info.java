/** {@code replay}: the accountant's corrected report of a past day. */
@NullMarked
package dev.lunchrush.loadgenerator.replay;

import org.jspecify.annotations.NullMarked;
