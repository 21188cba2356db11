/**
 * Readiness as the lesson needs it: a service is ready when what it needs for its job in the current act answers
 * (the act's broker, the order service's feed), each asked at most every few seconds and never for longer than a
 * probe waits. Liveness holds none of it: a broker that is down makes a service unready, never restarted.
 */
@NullMarked
package dev.lunchrush.support.readiness;

import org.jspecify.annotations.NullMarked;
