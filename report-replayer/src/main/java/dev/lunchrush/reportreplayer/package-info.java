@NullMarked
package dev.lunchrush.reportreplayer;

import org.jspecify.annotations.NullMarked;
