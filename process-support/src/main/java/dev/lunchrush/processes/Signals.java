package dev.lunchrush.processes;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** {@code kill -<SIGNAL> <pid>}: the signals Java's process API cannot send, {@code STOP} and {@code CONT}. */
public final class Signals {

    private Signals() {
    }

    /**
     * Sends {@code signal} (a name such as {@code STOP}) to the process; an {@link IllegalStateException} when
     * {@code kill} fails.
     */
    public static void send(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid)).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("cannot run kill -" + signal + ": " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }
}
