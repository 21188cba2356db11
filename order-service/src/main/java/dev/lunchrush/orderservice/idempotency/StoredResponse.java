package dev.lunchrush.orderservice.idempotency;

import org.jspecify.annotations.Nullable;

/** An answer as it was given the first time: what a retry with the same key gets again. */
public record StoredResponse(int status, @Nullable String location, String body, boolean replayed) {

    public StoredResponse asReplay() {
        return new StoredResponse(status, location, body, true);
    }
}
