package dev.lunchrush.scenarios.infra;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.localstack.PrometheusConfig;
import dev.lunchrush.scenarios.Stack;
import dev.lunchrush.testing.ChildProcesses;
import dev.lunchrush.testing.FreePorts;

import static org.awaitility.Awaitility.await;

/**
 * The Prometheus of the machine (Debian's {@code prometheus} package) run with
 * {@code infra/prometheus/prometheus.yml} and its rules, written by {@link PrometheusConfig} as the local launcher
 * writes them: every target {@code <name>:<port>} pointed at the process that plays it here; targets with nobody
 * to play them (the Kafka exporter, a service the test did not start) left out.
 */
final class LocalPrometheus implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalPrometheus.class);

    private final Process process;
    private final int port;
    private final Path logFile;

    private LocalPrometheus(Process process, int port, Path logFile) {
        this.process = process;
        this.port = port;
        this.logFile = logFile;
    }

    /**
     * @param targets where each compose host name of prometheus.yml is played here, as host:port
     *        (for example {@code order-service -> 127.0.0.1:41234}); other targets are left out
     */
    static LocalPrometheus start(Path folder, Map<String, String> targets) {
        Path binary = onPath("prometheus");
        int port = FreePorts.next();
        try {
            Files.createDirectories(folder);
            Path config = PrometheusConfig.write(MonitoringQueries.infra().resolve("prometheus"), folder,
                    target -> played(target, targets, "127.0.0.1:" + port));
            Path logFile = folder.resolve("prometheus.log");
            Process process = ChildProcesses.start(new ProcessBuilder(binary.toString(), "--config.file=" + config,
                    "--storage.tsdb.path=" + folder.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(logFile.toFile()));
            LocalPrometheus prometheus = new LocalPrometheus(process, port, logFile);
            log.info("started Prometheus as pid {} on port {}, log {}", process.pid(), port, logFile.toAbsolutePath());
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                        .until(() -> !process.isAlive() || prometheus.get("/-/ready") != null);
            }
            catch (RuntimeException ex) {
                prometheus.close();
                throw new IllegalStateException("Prometheus was not ready within 60 s; see " + logFile.toAbsolutePath(), ex);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("Prometheus exited with " + process.exitValue() + ": " + Files.readString(logFile));
            }
            return prometheus;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Where the target {@code <host>:<port>} is played here: by {@code self} for localhost, else by {@code targets}. */
    private static String played(String target, Map<String, String> targets, String self) {
        String host = target.substring(0, target.lastIndexOf(':'));
        return host.equals("localhost") ? self : targets.get(host);
    }

    /** Prometheus' alerts API: every pending or firing alert. */
    List<JsonNode> alerts() {
        String body = get("/api/v1/alerts");
        if (body == null) {
            return List.of();
        }
        List<JsonNode> alerts = new ArrayList<>();
        Stack.JSON.readTree(body).path("data").path("alerts").values().forEach(alerts::add);
        return alerts;
    }

    /** The value of an instant query's first series, or NaN when it has none. */
    double query(String promql) {
        String body = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        if (body == null) {
            return Double.NaN;
        }
        JsonNode result = Stack.JSON.readTree(body).path("data").path("result");
        return result.isEmpty() ? Double.NaN : Double.parseDouble(result.path(0).path("value").path(1).asString("NaN"));
    }

    /** The body of the answer when it is a 200, else null. */
    private String get(String path) {
        return Stack.fetch(URI.create("http://127.0.0.1:" + port + path), "application/json");
    }

    Path logFile() {
        return logFile;
    }

    @Override
    public void close() {
        ChildProcesses.stop(process, Duration.ofSeconds(15));
    }

    private static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("""
                No %s on the PATH: this test runs the machine's Prometheus against the services, with \
                infra/prometheus's configuration and alert rules. Install it (Debian: apt-get install prometheus; \
                .ci/run does).""".formatted(command));
    }
}
