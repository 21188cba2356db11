package dev.lunchrush.localstack;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.lunchrush.processes.Probe;
import dev.lunchrush.processes.ServiceJar;

/**
 * Zipkin's server, for the services' traces: the jar that {@code tools/zipkin-server} copies from Maven Central,
 * its spans in memory (at most {@link #MAX_SPANS}), on 127.0.0.1 alone. {@code up --no-tracing} leaves it out.
 */
final class ZipkinNode implements Component {

    static final int PORT = StackManifest.get().port("zipkin");
    static final int MAX_SPANS = 200_000;
    private static final int LOG_TAIL = 10;

    private final LocalStack stack;
    private final ServiceJar jar;
    private final ManagedProcess process;

    ZipkinNode(LocalStack stack) {
        this.stack = stack;
        this.jar = new ServiceJar(stack.root(), "zipkin-server");
        this.process = new ManagedProcess(name(), stack.runDir(), jar.path().toString());
    }

    @Override
    public String name() {
        return "zipkin";
    }

    private static String url() {
        return "http://127.0.0.1:" + PORT;
    }

    private static boolean healthy() {
        return Probe.httpStatus(URI.create(url() + "/health")) == 200;
    }

    @Override
    public void start() {
        if (!jar.built() || process.running().isPresent() || Probe.portOpen("127.0.0.1", PORT)) {
            return;
        }
        process.start(jar.command(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                List.of("--armeria.ports[0].port=" + PORT, "--armeria.ports[0].ip=127.0.0.1",
                        "--armeria.ports[0].protocols[0]=http")),
                Map.of("STORAGE_TYPE", "mem", "MEM_MAX_SPANS", String.valueOf(MAX_SPANS)), stack.root());
    }

    @Override
    public Row await(Instant deadline) {
        if (!jar.built()) {
            return notBuilt();
        }
        while (true) {
            boolean ours = process.running().isPresent();
            if (healthy()) {
                return Row.ok(name(), ours ? process.pidText() : "-", url(), ours ? "up" : "up (not started by ./demo)");
            }
            if (!ours && process.recordedPid().isPresent()) {
                return Row.failed(name(), process.pidText(), url(), process.exitedState("the process"), process.problem(LOG_TAIL));
            }
            if (Instant.now().isAfter(deadline)) {
                return Row.failed(name(), process.pidText(), url(), "failed: not healthy in time", process.problem(LOG_TAIL));
            }
            ManagedProcess.sleep(Duration.ofMillis(500));
        }
    }

    @Override
    public Row status() {
        if (!jar.built()) {
            return notBuilt();
        }
        return process.status(name(), url(), healthy(), "running, not healthy", LOG_TAIL);
    }

    @Override
    public String stop() {
        return process.stop(Duration.ofSeconds(15));
    }

    private Row notBuilt() {
        return Row.failed(name(), "-", url(), "missing: not built",
                List.of(jar.path() + " does not exist; build it with ./mvnw -q -DskipTests package"));
    }
}
