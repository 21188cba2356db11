@NullMarked
package dev.lunchrush.orderservice;

import org.jspecify.annotations.NullMarked;
