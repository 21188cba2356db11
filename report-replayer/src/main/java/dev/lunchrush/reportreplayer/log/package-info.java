@NullMarked
package dev.lunchrush.reportreplayer.log;

import org.jspecify.annotations.NullMarked;
