package dev.lunchrush.localstack.access;

import java.time.Duration;

/** Waiting in the commands: an interrupt (Ctrl+C) ends the command with a plain message. */
public final class Pause {

    private Pause() {
    }

    public static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }
}
