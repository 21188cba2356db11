package dev.lunchrush.localstack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import dev.lunchrush.processes.LogFiles;

/**
 * A process that {@code ./demo up} started and {@code ./demo down} stops: its pid in
 * {@code .run/<name>.pid}, its output in {@code .run/logs/<name>.log}.
 *
 * <p>A pid alone is not proof: pids are reused. A process counts as ours only when it is alive and its
 * command line contains {@link #marker} (the jar or the config file it was started with), so that
 * {@code down} never signals a stranger.
 */
final class ManagedProcess {

    private static final Path SETSID = Path.of("/usr/bin/setsid");

    private final String name;
    private final Path runDir;
    private final String marker;
    /** What {@link #start} started in this JVM (null before): the process the pid file names, and its Process when this JVM is its parent. */
    private ProcessHandle started;
    private Process child;

    ManagedProcess(String name, Path runDir, String marker) {
        this.name = name;
        this.runDir = runDir;
        this.marker = marker;
    }

    String name() {
        return name;
    }

    Path pidFile() {
        return runDir.resolve(name + ".pid");
    }

    Path logFile() {
        return runDir.resolve("logs").resolve(name + ".log");
    }

    OptionalLong recordedPid() {
        Path file = pidFile();
        if (!Files.isRegularFile(file)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(file).strip()));
        }
        catch (IOException | NumberFormatException ex) {
            return OptionalLong.empty();
        }
    }

    /**
     * The recorded process, when it is alive and is really ours. One that {@link #start} started in this JVM is ours
     * while it lives (its handle knows its start time, so a reused pid is not taken for it): its command line is no
     * proof there, since while {@code setsid} execs the command, {@code /proc/PID/cmdline} reads empty for a moment.
     */
    Optional<ProcessHandle> running() {
        OptionalLong pid = recordedPid();
        if (pid.isEmpty()) {
            return Optional.empty();
        }
        if (started != null && started.pid() == pid.getAsLong()) {
            return Optional.of(started).filter(ProcessHandle::isAlive);
        }
        return ProcessHandle.of(pid.getAsLong()).filter(ProcessHandle::isAlive).filter(this::isOurs);
    }

    /**
     * The state of a process that is no longer running: "failed: the process exited", and, for one that this JVM
     * started (and so is the parent of), with its exit code.
     */
    String exitedState(String what) {
        String state = "failed: " + what + " exited";
        if (child == null || started.isAlive()) {
            return state;
        }
        try {
            // the JDK reaps its child on a thread of its own: the exit code is there a moment after the exit
            if (!child.waitFor(1, TimeUnit.SECONDS)) {
                return state;
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return state;
        }
        int code = child.exitValue();
        return state + (code > 128 ? " (exit code %d: killed by signal %d)".formatted(code, code - 128) : " (exit code " + code + ")");
    }

    private boolean isOurs(ProcessHandle handle) {
        return isOurs(commandLine(handle), marker);
    }

    /**
     * Ours only when the command line is known and names the marker: a process whose command line cannot
     * be read (another user's, or one that is exiting) is a stranger, never signalled on a pid file's word.
     */
    static boolean isOurs(Optional<String> commandLine, String marker) {
        return commandLine.isPresent() && commandLine.get().contains(marker);
    }

    /** The command line as the JDK tells it, else as {@code /proc/PID/cmdline} has it (arguments joined by spaces). */
    static Optional<String> commandLine(ProcessHandle handle) {
        Optional<String> told = handle.info().commandLine();
        if (told.isPresent()) {
            return told;
        }
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(handle.pid()), "cmdline"));
            String line = new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            return line.isEmpty() ? Optional.empty() : Optional.of(line);
        }
        catch (IOException | RuntimeException ex) {
            return Optional.empty();
        }
    }

    /** Starts the command in a session of its own (Ctrl+C on {@code up} must not kill it), output to the log. */
    ProcessHandle start(List<String> command, Map<String, String> environment, Path workingDir) {
        try {
            Files.createDirectories(logFile().getParent());
            Files.writeString(logFile(), "%n=== ./demo up started %s at %s ===%n%s%n".formatted(name, Instant.now(),
                    String.join(" ", command)), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            List<String> full = new ArrayList<>();
            if (Files.isExecutable(SETSID)) {
                full.add(SETSID.toString());
            }
            full.addAll(command);
            ProcessBuilder builder = new ProcessBuilder(full)
                    .directory(workingDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            ProcessHandle handle = process.toHandle();
            // setsid execs the command in place (same pid) unless it had to fork: then the command is its child.
            if (handle.info().command().map(c -> c.endsWith("setsid")).orElse(false)) {
                handle = awaitChild(handle);
            }
            Files.writeString(pidFile(), handle.pid() + "\n");
            started = handle;
            child = handle.pid() == process.pid() ? process : null;
            return handle;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot start " + name + ": " + ex.getMessage(), ex);
        }
    }

    private static ProcessHandle awaitChild(ProcessHandle setsid) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < deadline) {
            Optional<ProcessHandle> child = setsid.children().findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            if (setsid.info().command().map(c -> !c.endsWith("setsid")).orElse(false)) {
                return setsid;
            }
            sleep(Duration.ofMillis(20));
        }
        return setsid;
    }

    /** SIGTERM, then SIGKILL after the grace period; removes the pid file. What happened, in words. */
    String stop(Duration grace) {
        Optional<ProcessHandle> process = running();
        OptionalLong pid = recordedPid();
        if (process.isEmpty()) {
            deletePidFile();
            return pid.isPresent() ? "was not running (stale pid file " + pid.getAsLong() + " removed)" : "was not running";
        }
        ProcessHandle handle = process.get();
        handle.destroy();
        try {
            handle.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            deletePidFile();
            return "stopped (pid " + handle.pid() + ", SIGTERM)";
        }
        catch (java.util.concurrent.TimeoutException ex) {
            handle.destroyForcibly();
            try {
                handle.onExit().get(10, TimeUnit.SECONDS);
            }
            catch (Exception ignored) {
                // reported below
            }
            deletePidFile();
            return handle.isAlive() ? "did not stop (pid " + handle.pid() + ")"
                    : "killed (pid " + handle.pid() + ", SIGKILL after " + grace.toSeconds() + " s)";
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "interrupted while stopping pid " + handle.pid();
        }
        catch (java.util.concurrent.ExecutionException ex) {
            deletePidFile();
            return "stopped (pid " + handle.pid() + ")";
        }
    }

    void deletePidFile() {
        try {
            Files.deleteIfExists(pidFile());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The recorded pid as the status table shows it: "-" when there is none. */
    String pidText() {
        OptionalLong pid = recordedPid();
        return pid.isPresent() ? String.valueOf(pid.getAsLong()) : "-";
    }

    /** Why something is not healthy: where its log is, and the log's last lines. */
    List<String> problem(int tailLines) {
        List<String> lines = new ArrayList<>();
        lines.add("log: " + logFile());
        lines.addAll(logTail(tailLines));
        return lines;
    }

    /**
     * The status row of the component that runs as this process, given whether it answers its own health
     * check now: up, running but {@code unhealthy}, up without ./demo having started it, dead, or not running.
     */
    Row status(String component, String url, boolean answers, String unhealthy, int tailLines) {
        if (running().isPresent()) {
            return answers ? Row.ok(component, pidText(), url, "up")
                    : Row.failed(component, pidText(), url, unhealthy, problem(tailLines));
        }
        if (answers) {
            return Row.ok(component, "-", url, "up (not started by ./demo)");
        }
        if (recordedPid().isPresent()) {
            return Row.failed(component, pidText(), url, "dead", problem(tailLines));
        }
        return Row.failed(component, "-", url, "not running", List.of());
    }

    /** The last lines of the log, to show why something did not come up. */
    List<String> logTail(int lines) {
        Path file = logFile();
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            return LogFiles.lastLines(file, lines);
        }
        catch (IOException ex) {
            return List.of("(cannot read " + file + ": " + ex.getMessage() + ")");
        }
    }

    static void sleep(Duration duration) {
        dev.lunchrush.localstack.access.Pause.sleep(duration);
    }
}
