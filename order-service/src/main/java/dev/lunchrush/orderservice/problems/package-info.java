/**
 * Errors as {@code application/problem+json}, with the fields they concern.
 */
@NullMarked
package dev.lunchrush.orderservice.problems;

import org.jspecify.annotations.NullMarked;
