/**
 * What tests share: real brokers from one place, services as child processes, a headless browser.
 */
@NullMarked
package dev.lunchrush.testing;

import org.jspecify.annotations.NullMarked;
