package dev.lunchrush.load.rush;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.lesson.Snapshot;

/**
 * Decides whether the order service died during the rush, and when. Dead means its process is gone (the pid
 * of {@code ./demo up}'s pid file), never merely silent: a service too busy to answer the status polls is
 * alive. The death is dated by the process's exit, watched from the start of the rush, not by the last poll
 * it answered. Without a pid file (a stack in Docker) a service silent for {@value #MISSES_WITHOUT_PID} polls
 * in a row counts as dead, dated by the first poll it missed.
 */
final class DeathWatch {

    static final int MISSES_WITHOUT_PID = 5;

    private final Path pidFile;
    private final long startNanos;
    private final @Nullable ProcessHandle process;
    private volatile long exitNanos;
    private boolean seenUp;
    private int missed;
    private @Nullable Snapshot firstMissed;
    private boolean dead;

    DeathWatch(Path root, long startNanos) {
        this.pidFile = root.resolve(".run").resolve("order-service.pid");
        this.startNanos = startNanos;
        this.process = process(pidFile);
        if (process != null && process.pid() != ProcessHandle.current().pid()) {
            process.onExit().thenRun(() -> exitNanos = System.nanoTime());
        }
    }

    /** True when this snapshot shows it died. */
    boolean observe(Snapshot snapshot) {
        if (dead) {
            return true;
        }
        if (snapshot.orderServiceUp()) {
            seenUp = true;
            missed = 0;
            firstMissed = null;
            return false;
        }
        if (!seenUp) {
            return false;
        }
        if (missed++ == 0) {
            firstMissed = snapshot;
        }
        Boolean gone = processGone();
        dead = gone != null ? gone : missed >= MISSES_WITHOUT_PID;
        return dead;
    }

    boolean dead() {
        return dead;
    }

    /** When it died, seconds into the rush: its process's exit, else the first poll it missed; null while it lives. */
    @Nullable Double diedAtSeconds() {
        if (!dead) {
            return null;
        }
        long exit = exitNanos;
        if (exit != 0) {
            return Math.max(0, exit - startNanos) / 1e9;
        }
        return firstMissed == null ? null : firstMissed.elapsedSeconds();
    }

    String diedAt(RateProfile profile) {
        Double at = diedAtSeconds();
        return at == null ? "?" : profile.clock(Duration.ofNanos(Math.round(at * 1e9)));
    }

    /** Whether the process in the pid file is gone; null when there is no pid file to tell. */
    private @Nullable Boolean processGone() {
        if (process != null) {
            return !process.isAlive();
        }
        Long pid = pid(pidFile);
        return pid == null ? null : ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
    }

    private static @Nullable ProcessHandle process(Path pidFile) {
        Long pid = pid(pidFile);
        return pid == null ? null : ProcessHandle.of(pid).orElse(null);
    }

    /** The pid in {@code ./demo up}'s pid file; null when there is none to read. */
    private static @Nullable Long pid(Path pidFile) {
        try {
            return Files.isRegularFile(pidFile) ? Long.parseLong(Files.readString(pidFile).strip()) : null;
        }
        catch (IOException | NumberFormatException ex) {
            return null;
        }
    }
}
