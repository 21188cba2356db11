/**
 * The HTTP server's limits, the same for every service: timeouts, header sizes, open connections.
 */
@NullMarked
package dev.lunchrush.support.server;

import org.jspecify.annotations.NullMarked;
