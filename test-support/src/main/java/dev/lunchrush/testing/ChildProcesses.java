package dev.lunchrush.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.processes.LogFiles;

/**
 * Every process a test starts (services, brokers, Prometheus, the {@code demo} command) is started
 * here, and stopped when the test JVM ends, however the run ends: a run stopped with Ctrl-C or a
 * SIGTERM to Maven makes surefire end its test JVM, whose shutdown hook stops the children that are
 * still alive (SIGTERM, then SIGKILL for those that have not gone within a few seconds), so that a
 * stopped run leaves no service, broker or Prometheus behind. Only a SIGKILL of the test JVM itself
 * skips it.
 */
public final class ChildProcesses {

    private static final Logger log = LoggerFactory.getLogger(ChildProcesses.class);
    private static final Duration GRACE = Duration.ofSeconds(5);
    private static final int TAIL_LINES = 40;
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::stopAll, "stop-child-processes"));
    }

    private ChildProcesses() {
    }

    /** Starts the process and keeps it to be stopped when this JVM ends. */
    public static Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        RUNNING.add(process);
        process.onExit().thenAccept(RUNNING::remove);
        return process;
    }

    /**
     * Waits until {@code ready} says so; fails, saying where {@code logFile} is, when the process exits first or
     * the timeout passes.
     */
    public static void awaitReady(Process process, BooleanSupplier ready, Duration timeout, String what, Path logFile) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue() + " while starting; see "
                        + logFile.toAbsolutePath() + tail(logFile));
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " was not ready within " + timeout + "; see " + logFile.toAbsolutePath()
                        + tail(logFile));
            }
            try {
                Thread.sleep(250);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
        }
    }

    /**
     * The log's last lines, to go with a failure's message: a CI run keeps the test output, not the logs the
     * services wrote beside it.
     */
    static String tail(Path logFile) {
        try {
            List<String> last = LogFiles.lastLines(logFile, TAIL_LINES);
            return last.isEmpty() ? "" : "; its last " + last.size() + " lines:\n" + String.join("\n", last);
        }
        catch (IOException ex) {
            return "";
        }
    }

    /** SIGTERM, then SIGKILL when the process has not ended within {@code grace}; returns once it has ended. */
    public static void stop(Process process, Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** The children still alive, for a test of this class. */
    static List<Process> alive() {
        return RUNNING.stream().filter(Process::isAlive).toList();
    }

    private static void stopAll() {
        List<Process> alive = alive();
        if (alive.isEmpty()) {
            return;
        }
        log.info("the test JVM ends: stopping {} child process(es) {}", alive.size(),
                alive.stream().map(Process::pid).toList());
        alive.forEach(Process::destroy);
        long deadline = System.nanoTime() + GRACE.toNanos();
        for (Process process : alive) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!process.waitFor(left, TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly();
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
