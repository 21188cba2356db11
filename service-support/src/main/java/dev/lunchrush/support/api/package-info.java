/**
 * What every service's OpenAPI document shares: its title, the admin's HTTP Basic on {@code /admin/**}, and the
 * shape of a problem document.
 */
@NullMarked
package dev.lunchrush.support.api;

import org.jspecify.annotations.NullMarked;
