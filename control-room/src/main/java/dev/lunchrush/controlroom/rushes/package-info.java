/** Rushes started from the page or the API: one at a time, each followed second by second until its closing table. */
@NullMarked
package dev.lunchrush.controlroom.rushes;

import org.jspecify.annotations.NullMarked;
