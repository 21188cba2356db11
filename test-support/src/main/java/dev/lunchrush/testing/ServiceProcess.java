package dev.lunchrush.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Lunch Rush service run from its packaged jar as a child JVM, so that a test can kill it with
 * SIGKILL, as a crash would, and start it again.
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
     * Starts {@code <root>/<module>/target/<module>.jar} and waits until its health is UP.
     *
     * @param jvmOptions options before {@code -jar}, such as {@code -Xmx64m}
     * @param environment environment variables on top of this JVM's
     */
    public static ServiceProcess start(String module, int port, List<String> jvmOptions,
            Map<String, String> environment, Duration startTimeout) {
        Path jar = projectRoot().resolve(module).resolve("target").resolve(module + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: package the module first (./mvnw package -pl " + module + " -am)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        command.add("--server.port=" + port);
        command.add("--server.address=127.0.0.1");
        Path logDir = Path.of("target", "service-logs");
        try {
            Files.createDirectories(logDir);
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
        Path logFile = logDir.resolve(module + "-" + Instant.now().toEpochMilli() + ".log");
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
        awaitHealthy(startTimeout);
    }

    private void awaitHealthy(Duration timeout) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                .timeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(module + " exited with " + process.exitValue() + " while starting; see " + logFile.toAbsolutePath());
            }
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("\"UP\"")) {
                    return;
                }
            }
            catch (IOException ex) {
                // not listening yet
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(ex);
            }
            sleep(250);
        }
        kill();
        throw new IllegalStateException(module + " was not healthy within " + timeout + "; see " + logFile.toAbsolutePath());
    }

    /** SIGKILL: the process gets no chance to flush, commit or say goodbye. */
    public void kill() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            waitFor(Duration.ofSeconds(30));
        }
    }

    /** SIGTERM, a graceful shutdown. */
    public void stop() {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!waitFor(Duration.ofSeconds(30))) {
                kill();
            }
        }
    }

    /** Waits for the process to end by itself (for example of OutOfMemoryError). */
    public boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
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

    /** The folder with {@code mvnw}, found from the working directory upwards. */
    public static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("not inside the Lunch Rush project: no mvnw above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
