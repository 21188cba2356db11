package dev.lunchrush.events;

import org.jspecify.annotations.Nullable;

/** Bytes on a queue or in the log that are not an order event: poison, to be dead-lettered. */
public class OrderEventFormatException extends RuntimeException {

    public OrderEventFormatException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
