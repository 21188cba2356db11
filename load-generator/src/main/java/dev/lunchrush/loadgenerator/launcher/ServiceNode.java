package dev.lunchrush.loadgenerator.launcher;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lunchrush.loadgenerator.AdminPassword;

/** One of the five Spring Boot services, run from its packaged jar. */
final class ServiceNode implements Component {

    /** The heap for the memory-feed act until the order service's README says otherwise. */
    static final String DEFAULT_ORDER_SERVICE_HEAP = "-Xmx160m";

    private static final Pattern XMX = Pattern.compile("-Xmx\\d+[kKmMgG]");

    /** Heap and GC options as a README writes them next to its -Xmx: -Xmn16m, -XX:+UseParallelGC, -XX:GCTimeLimit=80. */
    private static final Pattern JVM_OPTION = Pattern.compile("-Xm[xns]\\d+[kKmMgG]|-XX:[+-]?[A-Za-z]+(=[\\w.]+)?");
    private static final Duration GRACE = Duration.ofSeconds(20);
    private static final int LOG_TAIL = 15;

    private final LocalStack stack;
    private final String module;
    private final int port;
    private final String adminPassword;
    private final ManagedProcess process;

    ServiceNode(LocalStack stack, String module, int port, String adminPassword) {
        this.stack = stack;
        this.module = module;
        this.port = port;
        this.adminPassword = adminPassword;
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
        return stack.root().resolve(module).resolve("target").resolve(module + ".jar");
    }

    private URI url() {
        return URI.create("http://localhost:" + port);
    }

    @Override
    public void start() {
        if (!Files.isRegularFile(jar()) || process.running().isPresent() || Probe.portOpen("127.0.0.1", port)) {
            return;
        }
        Path dataDir = stack.runDir().resolve("data").resolve(module);
        try {
            Files.createDirectories(dataDir);
        }
        catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        List<String> command = new ArrayList<>();
        command.add(KafkaNode.javaBin());
        command.addAll(jvmOptions(stack.root(), module));
        command.add("-jar");
        command.add(jar().toString());
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("LUNCHRUSH_DATA_DIR", dataDir.toString());
        environment.put(AdminPassword.VARIABLE, adminPassword);
        environment.put("SPRING_RABBITMQ_HOST", "127.0.0.1");
        environment.put("SPRING_RABBITMQ_PORT", "5672");
        environment.put("SPRING_RABBITMQ_USERNAME", "guest");
        environment.put("SPRING_RABBITMQ_PASSWORD", "guest");
        environment.put("LUNCHRUSH_RABBITMQ_MANAGEMENT_URI", "http://127.0.0.1:15672");
        environment.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", stack.bootstrapServers());
        environment.put("SERVER_PORT", String.valueOf(port));
        process.start(command, environment, stack.root());
    }

    /**
     * The order service gets the heap its README asks for (the memory-feed act's budget depends on it)
     * and dies for real on OutOfMemoryError; the others get 256 MB. {@code ORDER_SERVICE_HEAP} (environment or
     * {@code .env}, as compose reads it, e.g. {@code 160m}) comes before the README's figure;
     * {@code LUNCHRUSH_<MODULE>_JAVA_OPTS} replaces the heap options, e.g. {@code LUNCHRUSH_ORDER_SERVICE_JAVA_OPTS=-Xmx300m}.
     */
    static List<String> jvmOptions(Path root, String module) {
        List<String> options = new ArrayList<>();
        String override = System.getenv("LUNCHRUSH_" + module.toUpperCase().replace('-', '_') + "_JAVA_OPTS");
        if (override != null && !override.isBlank()) {
            options.addAll(List.of(override.strip().split("\\s+")));
        }
        else if (module.equals("order-service")) {
            String heap = System.getenv("ORDER_SERVICE_HEAP");
            if (heap == null || heap.isBlank()) {
                heap = AdminPassword.readDotEnv(root.resolve(".env"), "ORDER_SERVICE_HEAP");
            }
            if (heap != null && heap.strip().matches("\\d+[kKmMgG]")) {
                options.add("-Xmx" + heap.strip());
            }
            else {
                options.addAll(orderServiceOptions(root.resolve("order-service").resolve("README.md")));
            }
        }
        else {
            options.add("-Xmx256m");
        }
        if (module.equals("order-service") && options.stream().noneMatch(o -> o.contains("ExitOnOutOfMemoryError"))) {
            options.add("-XX:+ExitOnOutOfMemoryError");
        }
        if (options.stream().noneMatch(o -> o.matches("-XX:\\+Use\\w*GC"))) {
            options.add("-XX:+UseG1GC");
        }
        options.add("-Djava.awt.headless=true");
        return options;
    }

    /**
     * The JVM options of the first line of the order service's README that names an {@code -Xmx}: the heap,
     * and the GC options written with it (the memory-feed act's death depends on them); else
     * {@link #DEFAULT_ORDER_SERVICE_HEAP}.
     */
    static List<String> orderServiceOptions(Path readme) {
        if (!Files.isRegularFile(readme)) {
            return List.of(DEFAULT_ORDER_SERVICE_HEAP);
        }
        try {
            for (String line : Files.readAllLines(readme)) {
                if (XMX.matcher(line).find()) {
                    List<String> options = new ArrayList<>();
                    Matcher matcher = JVM_OPTION.matcher(line);
                    while (matcher.find()) {
                        if (!options.contains(matcher.group())) {
                            options.add(matcher.group());
                        }
                    }
                    return options;
                }
            }
        }
        catch (IOException ex) {
            // fall through to the default
        }
        return List.of(DEFAULT_ORDER_SERVICE_HEAP);
    }

    /** The first {@code -Xmx…} the order service's README names, else {@link #DEFAULT_ORDER_SERVICE_HEAP}. */
    static String orderServiceHeap(Path readme) {
        if (!Files.isRegularFile(readme)) {
            return DEFAULT_ORDER_SERVICE_HEAP;
        }
        try {
            Matcher matcher = XMX.matcher(Files.readString(readme));
            return matcher.find() ? matcher.group() : DEFAULT_ORDER_SERVICE_HEAP;
        }
        catch (IOException ex) {
            return DEFAULT_ORDER_SERVICE_HEAP;
        }
    }

    @Override
    public Row await(Instant deadline) {
        if (!Files.isRegularFile(jar())) {
            return notBuilt();
        }
        while (true) {
            boolean ours = process.running().isPresent();
            if (Probe.actuatorUp(url())) {
                return ours ? Row.ok(name(), process.pidText(), url().toString(), "up")
                        : Row.ok(name(), "-", url().toString(), "up (not started by ./demo)");
            }
            if (!ours && process.recordedPid().isPresent()) {
                return Row.failed(name(), process.pidText(), url().toString(), "failed: the process exited", process.problem(LOG_TAIL));
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
        if (!Files.isRegularFile(jar())) {
            return notBuilt();
        }
        return process.status(name(), url().toString(), Probe.actuatorUp(url()), "running, not healthy", LOG_TAIL);
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
