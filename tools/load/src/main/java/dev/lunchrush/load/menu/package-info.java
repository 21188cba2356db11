/** {@code menu}: the order service's menu as its clients read it, and realistic random orders for it. */
@NullMarked
package dev.lunchrush.load.menu;

import org.jspecify.annotations.NullMarked;
