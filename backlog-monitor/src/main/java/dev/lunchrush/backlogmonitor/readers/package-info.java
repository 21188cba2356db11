@NullMarked
package dev.lunchrush.backlogmonitor.readers;

import org.jspecify.annotations.NullMarked;
