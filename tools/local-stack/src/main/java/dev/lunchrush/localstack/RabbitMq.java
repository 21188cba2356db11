package dev.lunchrush.localstack;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import dev.lunchrush.processes.Probe;

/**
 * The machine's RabbitMQ on 127.0.0.1:5672: started with {@code rabbitmq-server -detached} when it is
 * installed and does not answer, with the management and Prometheus plugins enabled. It belongs to the
 * machine, so {@code down} leaves it running.
 */
final class RabbitMq implements Component {

    static final int AMQP_PORT = StackManifest.get().port("rabbitmq");
    static final int MANAGEMENT_PORT = 15672;
    static final int PROMETHEUS_PORT = 15692;

    private final LocalStack stack;
    private String startNote = "";

    RabbitMq(LocalStack stack) {
        this.stack = stack;
    }

    @Override
    public String name() {
        return "rabbitmq";
    }

    private static String url() {
        return "http://127.0.0.1:" + MANAGEMENT_PORT;
    }

    private Path log() {
        return stack.runDir().resolve("logs").resolve("rabbitmq.log");
    }

    @Override
    public void start() {
        if (!Probe.portOpen("127.0.0.1", AMQP_PORT)) {
            Optional<Path> server = onPath("rabbitmq-server");
            if (server.isEmpty()) {
                return;
            }
            run(List.of(server.get().toString(), "-detached"), Duration.ofSeconds(30));
            startNote = " (started)";
            waitForPort(AMQP_PORT, Instant.now().plusSeconds(90));
        }
        if (Probe.portOpen("127.0.0.1", AMQP_PORT)
                && (!Probe.portOpen("127.0.0.1", MANAGEMENT_PORT) || !Probe.portOpen("127.0.0.1", PROMETHEUS_PORT))) {
            onPath("rabbitmq-plugins").ifPresent(plugins -> run(List.of(plugins.toString(), "enable",
                    "rabbitmq_management", "rabbitmq_prometheus"), Duration.ofSeconds(90)));
        }
    }

    @Override
    public Row await(Instant deadline) {
        waitForPort(AMQP_PORT, deadline);
        if (!Probe.portOpen("127.0.0.1", AMQP_PORT)) {
            return onPath("rabbitmq-server").isEmpty()
                    ? Row.failed(name(), "-", "127.0.0.1:" + AMQP_PORT, "missing: not installed, nothing on 5672",
                            List.of("install RabbitMQ (apt-get install rabbitmq-server) or start one on 127.0.0.1:5672 with guest/guest"))
                    : Row.failed(name(), "-", "127.0.0.1:" + AMQP_PORT, "failed: does not answer on 5672",
                            List.of("log: " + log(), "see also /var/log/rabbitmq/"));
        }
        waitForPort(MANAGEMENT_PORT, deadline);
        waitForPort(PROMETHEUS_PORT, deadline);
        return status(startNote);
    }

    @Override
    public Row status() {
        return status("");
    }

    private Row status(String note) {
        if (!Probe.portOpen("127.0.0.1", AMQP_PORT)) {
            return Row.failed(name(), "-", "127.0.0.1:" + AMQP_PORT, "not running", List.of());
        }
        List<String> missing = new ArrayList<>();
        if (!Probe.portOpen("127.0.0.1", MANAGEMENT_PORT)) {
            missing.add("rabbitmq_management (15672)");
        }
        if (!Probe.portOpen("127.0.0.1", PROMETHEUS_PORT)) {
            missing.add("rabbitmq_prometheus (15692)");
        }
        if (!missing.isEmpty()) {
            return Row.failed(name(), "-", url(), "up, plugins missing: " + String.join(", ", missing),
                    List.of("rabbitmq-plugins enable rabbitmq_management rabbitmq_prometheus"));
        }
        return Row.ok(name(), "-", url(), "up (the machine's)" + note);
    }

    @Override
    public String stop() {
        return "left running: it is the machine's RabbitMQ, not ./demo's";
    }

    private void run(List<String> command, Duration timeout) {
        try {
            Files.createDirectories(log().getParent());
            Process process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
                    .start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroy();
            }
        }
        catch (IOException ex) {
            // reported by await(): the port does not answer
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitForPort(int port, Instant deadline) {
        while (!Probe.portOpen("127.0.0.1", port) && Instant.now().isBefore(deadline)) {
            ManagedProcess.sleep(Duration.ofMillis(500));
        }
    }

    static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        List<String> dirs = new ArrayList<>(List.of((path == null ? "" : path).split(File.pathSeparator)));
        // rabbitmq-server lives in /usr/sbin, which a user's PATH may lack
        dirs.addAll(List.of("/usr/sbin", "/usr/local/sbin", "/usr/lib/rabbitmq/bin"));
        return dirs.stream().filter(dir -> !dir.isBlank()).map(dir -> Path.of(dir, program))
                .filter(Files::isExecutable).findFirst();
    }
}
