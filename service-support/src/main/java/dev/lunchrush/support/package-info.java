/**
 * Configuration that every Lunch Rush service shares: who may call the admin endpoints, and the
 * heap figures that the lesson about the in-memory feed is measured with.
 */
@NullMarked
package dev.lunchrush.support;

import org.jspecify.annotations.NullMarked;
