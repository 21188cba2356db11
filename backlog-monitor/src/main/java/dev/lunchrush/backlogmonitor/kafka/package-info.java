@NullMarked
package dev.lunchrush.backlogmonitor.kafka;

import org.jspecify.annotations.NullMarked;
