/**
 * The control room: the lesson on one page, played from the browser. The rush runs in this JVM with the
 * command line's own code ({@code dev.lunchrush.load.rush}); the services are reached over HTTP.
 */
@NullMarked
package dev.lunchrush.controlroom;

import org.jspecify.annotations.NullMarked;
