/**
 * The order event and its JSON codec, shared by the order service (the writer) and every reader.
 */
@NullMarked
package dev.lunchrush.events;

import org.jspecify.annotations.NullMarked;
