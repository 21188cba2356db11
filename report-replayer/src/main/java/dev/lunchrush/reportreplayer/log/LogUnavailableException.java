package dev.lunchrush.reportreplayer.log;

import org.jspecify.annotations.Nullable;

/** Kafka did not answer in time: the request is answered 503, nothing was started. */
public class LogUnavailableException extends RuntimeException {

    public LogUnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
