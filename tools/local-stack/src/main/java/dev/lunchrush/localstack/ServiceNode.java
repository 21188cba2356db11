package dev.lunchrush.localstack;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.processes.Probe;
import dev.lunchrush.processes.ServiceJar;

/** One of the five Spring Boot services, run from its packaged jar. */
final class ServiceNode implements Component {

    private static final Duration GRACE = Duration.ofSeconds(20);
    private static final int LOG_TAIL = 15;

    private final LocalStack stack;
    private final String module;
    private final int port;
    private final String adminPassword;
    private final ServiceJar jar;
    private final ManagedProcess process;

    ServiceNode(LocalStack stack, String module, int port, String adminPassword) {
        this.stack = stack;
        this.module = module;
        this.port = port;
        this.adminPassword = adminPassword;
        this.jar = new ServiceJar(stack.root(), module);
        this.process = new ManagedProcess(module, stack.runDir(), jar().toString());
    }

    ManagedProcess process() {
        return process;
    }

    @Override
    public String name() {
        return module;
    }

    Path jar() {
        return jar.path();
    }

    /** Where this launcher asks the service: its bind address, or the loopback when it listens on every interface. */
    private URI url() {
        String address = stack.bindAddress();
        String host = address.equals("0.0.0.0") || address.equals("::") || address.equals("[::]") ? LocalStack.LOOPBACK
                : address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
        return URI.create("http://" + host + ":" + port);
    }

    @Override
    public void start() {
        if (!jar.built() || process.running().isPresent() || Probe.portOpen("127.0.0.1", port)) {
            return;
        }
        Path dataDir = stack.runDir().resolve("data").resolve(module);
        try {
            Files.createDirectories(dataDir);
        }
        catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        process.start(jar.command(jvmOptions(module), List.of()), environment(dataDir), stack.root());
    }

    Map<String, String> environment(Path dataDir) {
        Map<String, String> environment = environment(stack.root(), module, dataDir, adminPassword,
                stack.bootstrapServers(), stack.bindAddress(), port);
        if (!stack.tracing()) {
            // up --no-tracing: no spans made, none sent
            environment.put("MANAGEMENT_TRACING_EXPORT_ENABLED", "false");
        }
        return environment;
    }

    /**
     * The service's environment: where its data and the brokers are, its address and port, and its JVM's settings.
     * It listens on {@code bindAddress} alone ({@code server.address}; 127.0.0.1 unless LUNCHRUSH_BIND_ADDRESS says
     * otherwise), as compose publishes its ports: nothing on the network reaches a service that did not ask to be.
     */
    static Map<String, String> environment(Path root, String module, Path dataDir, String adminPassword,
            String bootstrapServers, String bindAddress, int port) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("LUNCHRUSH_DATA_DIR", dataDir.toString());
        environment.put(AdminPassword.VARIABLE, adminPassword);
        environment.put("SPRING_RABBITMQ_HOST", "127.0.0.1");
        environment.put("SPRING_RABBITMQ_PORT", "5672");
        environment.put("SPRING_RABBITMQ_USERNAME", "guest");
        environment.put("SPRING_RABBITMQ_PASSWORD", "guest");
        environment.put("LUNCHRUSH_RABBITMQ_MANAGEMENT_URI", "http://127.0.0.1:15672");
        environment.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
        environment.put("SERVER_ADDRESS", bindAddress);
        environment.put("SERVER_PORT", String.valueOf(port));
        environment.put(JvmSettings.VARIABLE, JvmSettings.javaToolOptions(root, module));
        return environment;
    }

    /**
     * Options on the command line, after the module's {@code JAVA_TOOL_OPTIONS} (see {@link JvmSettings}), so
     * they win: {@code LUNCHRUSH_<MODULE>_JAVA_OPTS}, e.g. {@code LUNCHRUSH_ORDER_SERVICE_JAVA_OPTS=-Xmx300m},
     * for a run of {@code ./demo up} that means to differ from compose.
     */
    static List<String> jvmOptions(String module) {
        List<String> options = new ArrayList<>();
        String override = System.getenv("LUNCHRUSH_" + module.toUpperCase().replace('-', '_') + "_JAVA_OPTS");
        if (override != null && !override.isBlank()) {
            options.addAll(List.of(override.strip().split("\\s+")));
        }
        options.add("-Djava.awt.headless=true");
        return options;
    }

    @Override
    public Row await(Instant deadline) {
        if (!jar.built()) {
            return notBuilt();
        }
        while (true) {
            boolean ours = process.running().isPresent();
            if (ServiceJar.healthy(url())) {
                return ours ? Row.ok(name(), process.pidText(), url().toString(), "up")
                        : Row.ok(name(), "-", url().toString(), "up (not started by ./demo)");
            }
            if (!ours && process.recordedPid().isPresent()) {
                return Row.failed(name(), process.pidText(), url().toString(), process.exitedState("the process"), process.problem(LOG_TAIL));
            }
            if (!ours && Probe.portOpen("127.0.0.1", port)) {
                return Row.failed(name(), "-", url().toString(), "port " + port + " is taken by another process",
                        List.of("something that ./demo did not start listens on " + port + " and is not this service"));
            }
            if (Instant.now().isAfter(deadline)) {
                return Row.failed(name(), process.pidText(), url().toString(), "failed: not healthy in time", process.problem(LOG_TAIL));
            }
            ManagedProcess.sleep(Duration.ofMillis(500));
        }
    }

    @Override
    public Row status() {
        if (!jar.built()) {
            return notBuilt();
        }
        return process.status(name(), url().toString(), ServiceJar.healthy(url()), "running, not healthy", LOG_TAIL);
    }

    @Override
    public String stop() {
        return process.stop(GRACE);
    }

    private Row notBuilt() {
        return Row.failed(name(), "-", url().toString(), "missing: not built",
                List.of(jar() + " does not exist; build it with ./mvnw -q -DskipTests package"));
    }
}
