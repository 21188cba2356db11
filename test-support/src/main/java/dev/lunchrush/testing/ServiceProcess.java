package dev.lunchrush.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.processes.RepoRoot;
import dev.lunchrush.processes.ServiceJar;

/**
 * A Lunch Rush service run from its packaged jar ({@link ServiceJar}, as {@code ./demo up} runs it; extracted, with a
 * class data archive: {@link ClassDataArchive}) as a child JVM on 127.0.0.1 and a port the test chose, so that a test
 * can kill it with SIGKILL, as a crash would, and start it again.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ServiceProcess.class);

    private final String module;
    private final int port;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path logFile;
    private Process process;

    private ServiceProcess(String module, int port, List<String> command, Map<String, String> environment, Path logFile) {
        this.module = module;
        this.port = port;
        this.command = command;
        this.environment = environment;
        this.logFile = logFile;
    }

    /**
     * Starts {@code <root>/<module>/target/<module>.jar} extracted, with its class data archive
     * ({@link ClassDataArchive}), and waits until its health is UP.
     *
     * @param jvmOptions options before {@code -jar}, such as {@code -Xmx64m}
     * @param environment environment variables on top of this JVM's
     */
    public static ServiceProcess start(String module, int port, List<String> jvmOptions,
            Map<String, String> environment, Duration startTimeout) {
        return start(module, port, jvmOptions, environment, startTimeout, true);
    }

    /**
     * Starts the packaged jar itself, as {@code ./demo up} starts it, and waits until its health is UP: for a JVM whose
     * heap a test sizes and measures (act 3's budget). An extracted class path with an archive leaves a different heap
     * after a start, and a test of the lesson's arithmetic must measure the heap users run.
     */
    public static ServiceProcess startFromJar(String module, int port, List<String> jvmOptions,
            Map<String, String> environment, Duration startTimeout) {
        return start(module, port, jvmOptions, environment, startTimeout, false);
    }

    private static ServiceProcess start(String module, int port, List<String> jvmOptions,
            Map<String, String> environment, Duration startTimeout, boolean archived) {
        ServiceJar jar = new ServiceJar(projectRoot(), module);
        if (!jar.built()) {
            throw new IllegalStateException(jar.path() + " is missing: package the module first (./mvnw package -pl "
                    + module + " -am)");
        }
        List<String> arguments = List.of("--server.port=" + port, "--server.address=127.0.0.1");
        List<String> command = archived ? new ClassDataArchive(jar).command(jvmOptions, arguments, environment)
                : jar.command(jvmOptions, arguments);
        Path logDir = Path.of("target", "service-logs");
        try {
            Files.createDirectories(logDir);
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
        // the port too: scenarios that run side by side may start the same module in the same millisecond
        Path logFile = logDir.resolve(module + "-" + port + "-" + Instant.now().toEpochMilli() + ".log");
        ServiceProcess service = new ServiceProcess(module, port, command, environment, logFile);
        service.launch(startTimeout);
        return service;
    }

    /** Starts the same service again, after {@link #kill()} or {@link #stop()}. */
    public void restart(Duration startTimeout) {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(module + " is still running");
        }
        launch(startTimeout);
    }

    private void launch(Duration startTimeout) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(environment);
        try {
            process = ChildProcesses.start(builder);
        }
        catch (IOException ex) {
            throw new IllegalStateException("could not start " + module, ex);
        }
        log.info("started {} as pid {} on port {}, log {}", module, process.pid(), port, logFile.toAbsolutePath());
        try {
            ChildProcesses.awaitReady(process, () -> ServiceJar.healthy(baseUri()), startTimeout, module, logFile);
        }
        catch (IllegalStateException ex) {
            kill();
            throw ex;
        }
    }

    /** SIGKILL: the process gets no chance to flush, commit or say goodbye. */
    public void kill() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            waitFor(Duration.ofSeconds(30));
        }
    }

    /** SIGTERM, a graceful shutdown (SIGKILL after 30 s). */
    public void stop() {
        if (process != null) {
            ChildProcesses.stop(process, Duration.ofSeconds(30));
        }
    }

    /** Waits for the process to end by itself (for example of OutOfMemoryError). */
    public boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public int exitValue() {
        return process.exitValue();
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return port;
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public Path logFile() {
        return logFile;
    }

    public String log() {
        try {
            return Files.readString(logFile);
        }
        catch (IOException ex) {
            return "";
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** The folder with {@code mvnw}: {@link RepoRoot}, the one {@code ./demo} uses. */
    public static Path projectRoot() {
        Path root = RepoRoot.find();
        if (!Files.exists(root.resolve("mvnw"))) {
            throw new IllegalStateException("not inside the Lunch Rush project: no mvnw above " + Path.of("").toAbsolutePath());
        }
        return root;
    }
}
