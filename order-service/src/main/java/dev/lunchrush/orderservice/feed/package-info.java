/**
 * Act 3's in-memory feed and its back-pressure strategies; the analytics job pulls from it.
 */
@NullMarked
package dev.lunchrush.orderservice.feed;

import org.jspecify.annotations.NullMarked;
