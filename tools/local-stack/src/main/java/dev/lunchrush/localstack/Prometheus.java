package dev.lunchrush.localstack;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.processes.Probe;

/**
 * Prometheus where it is installed, with the configuration of {@code infra/prometheus} (written for
 * compose host names) copied to {@code .run/prometheus/} by {@link PrometheusConfig} with every
 * {@code <service>:<port>} of a process this launcher plays turned into {@code 127.0.0.1:<port>}, and the
 * targets of what only compose runs (the Kafka exporter) left out: a target nobody plays here would be down
 * for ever, and its alert ({@code KafkaExporterDown}) with it.
 */
final class Prometheus implements Component {

    static final int PORT = StackManifest.get().port("prometheus");
    private static final int LOG_TAIL = 10;

    /** The compose service names of the processes this launcher plays: the manifest's services, the brokers, Prometheus. */
    private static final Pattern COMPOSE_HOST = Pattern.compile("(" + StackManifest.get().services().stream()
            .map(StackManifest.Service::name).collect(Collectors.joining("|"))
            + "|rabbitmq|kafka\\d*|prometheus|localhost):(\\d+)");

    /** The compose services that only compose runs: their targets are left out here. */
    private static final Pattern COMPOSE_ONLY = Pattern.compile("(kafka-exporter|kafka-ui|grafana|alertmanager):\\d+");

    private final LocalStack stack;
    private final ManagedProcess process;

    Prometheus(LocalStack stack) {
        this.stack = stack;
        this.process = new ManagedProcess("prometheus", stack.runDir(), configFile().toString());
    }

    @Override
    public String name() {
        return "prometheus";
    }

    private Path sourceDir() {
        return stack.root().resolve("infra").resolve("prometheus");
    }

    private Path targetDir() {
        return stack.runDir().resolve("prometheus");
    }

    private Path configFile() {
        return targetDir().resolve("prometheus.yml");
    }

    private static String url() {
        return "http://127.0.0.1:" + PORT;
    }

    private Optional<Row> absent() {
        if (RabbitMq.onPath("prometheus").isEmpty()) {
            return Optional.of(Row.ok(name(), "-", url(), "missing: prometheus is not installed (skipped)"));
        }
        if (!Files.isRegularFile(sourceDir().resolve("prometheus.yml"))) {
            return Optional.of(Row.ok(name(), "-", url(), "skipped: infra/prometheus/prometheus.yml does not exist yet"));
        }
        return Optional.empty();
    }

    @Override
    public void start() {
        if (absent().isPresent() || process.running().isPresent() || Probe.portOpen("127.0.0.1", PORT)) {
            return;
        }
        writeConfiguration(sourceDir(), targetDir());
        Path prometheus = RabbitMq.onPath("prometheus").orElseThrow();
        process.start(List.of(prometheus.toString(), "--config.file=" + configFile(),
                "--storage.tsdb.path=" + targetDir().resolve("data"), "--web.listen-address=127.0.0.1:" + PORT,
                "--web.enable-lifecycle"), java.util.Map.of(), stack.root());
    }

    @Override
    public Row await(Instant deadline) {
        Optional<Row> absent = absent();
        if (absent.isPresent()) {
            return absent.get();
        }
        while (true) {
            boolean ours = process.running().isPresent();
            if (Probe.httpStatus(URI.create(url() + "/-/ready")) == 200) {
                return Row.ok(name(), ours ? process.pidText() : "-", url(), ours ? "up" : "up (not started by ./demo)");
            }
            if (!ours && process.recordedPid().isPresent()) {
                return Row.failed(name(), process.pidText(), url(), process.exitedState("the process"), process.problem(LOG_TAIL));
            }
            if (Instant.now().isAfter(deadline)) {
                return Row.failed(name(), process.pidText(), url(), "failed: not ready in time", process.problem(LOG_TAIL));
            }
            ManagedProcess.sleep(Duration.ofMillis(500));
        }
    }

    @Override
    public Row status() {
        Optional<Row> absent = absent();
        if (absent.isPresent()) {
            return absent.get();
        }
        return process.status(name(), url(), Probe.httpStatus(URI.create(url() + "/-/ready")) == 200,
                "running, not ready", LOG_TAIL);
    }

    @Override
    public String stop() {
        return process.stop(Duration.ofSeconds(15));
    }

    /** Copies prometheus.yml and rules/*.yml, with compose hosts made local and rule paths made ours. */
    static void writeConfiguration(Path source, Path target) {
        PrometheusConfig.write(source, target, Prometheus::local);
    }

    /**
     * {@code order-service:8080} becomes {@code 127.0.0.1:8080}; a service only compose runs ({@code kafka-exporter:9308})
     * is null, left out; a host compose does not run stays as it is.
     */
    static @Nullable String local(String target) {
        if (COMPOSE_ONLY.matcher(target).matches()) {
            return null;
        }
        Matcher host = COMPOSE_HOST.matcher(target);
        return host.matches() ? "127.0.0.1:" + host.group(2) : target;
    }
}
