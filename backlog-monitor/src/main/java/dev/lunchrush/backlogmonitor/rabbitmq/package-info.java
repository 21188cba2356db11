@NullMarked
package dev.lunchrush.backlogmonitor.rabbitmq;

import org.jspecify.annotations.NullMarked;
