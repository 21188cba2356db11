/**
 * A request refused as a problem document, the same exception in every service that answers with one: each
 * service renders it in its own handler (Spring MVC or WebFlux).
 */
@NullMarked
package dev.lunchrush.support.problems;

import org.jspecify.annotations.NullMarked;
