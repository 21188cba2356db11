/** The OpenAPI document's cost on the heap kept down, for act 3's budget. */
@NullMarked
package dev.lunchrush.orderservice.apidocs;

import org.jspecify.annotations.NullMarked;
