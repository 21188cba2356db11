@NullMarked
package dev.lunchrush.backlogmonitor;

import org.jspecify.annotations.NullMarked;
