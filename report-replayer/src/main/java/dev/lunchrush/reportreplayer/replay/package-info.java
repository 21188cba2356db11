@NullMarked
package dev.lunchrush.reportreplayer.replay;

import org.jspecify.annotations.NullMarked;
