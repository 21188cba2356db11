/**
 * What the reactive web layer shares: where a request's work continues, and the threads for work
 * that may block.
 */
@NullMarked
package dev.lunchrush.orderservice.web;

import org.jspecify.annotations.NullMarked;
