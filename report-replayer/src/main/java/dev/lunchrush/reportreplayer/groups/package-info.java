@NullMarked
package dev.lunchrush.reportreplayer.groups;

import org.jspecify.annotations.NullMarked;
