package dev.lunchrush.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The stack {@code ./demo up} runs from the repository root with {@code .run/} as its folder: what it is
 * made of, in start order, and where each piece keeps its files.
 */
public final class LocalStack {

    /** The services of the manifest, in the order they are started. */
    static final List<String> SERVICES = StackManifest.get().services().stream().map(StackManifest.Service::name).toList();

    static final int SINGLE_BROKER_PORT = StackManifest.get().port("kafka");

    /** Where the services listen: 127.0.0.1 unless this variable says otherwise, as compose publishes. */
    static final String BIND_ADDRESS_VARIABLE = "LUNCHRUSH_BIND_ADDRESS";
    static final String LOOPBACK = "127.0.0.1";

    private final Path root;
    private final Path runDir;
    private final boolean cluster;
    private final boolean tracing;
    private final String bindAddress;

    public LocalStack(Path root, boolean cluster) {
        this(root, cluster, true);
    }

    /** @param tracing whether Zipkin runs and the services trace ({@code up --no-tracing}: neither) */
    public LocalStack(Path root, boolean cluster, boolean tracing) {
        this(root, cluster, tracing, System.getenv());
    }

    LocalStack(Path root, boolean cluster, Map<String, String> environment) {
        this(root, cluster, true, environment);
    }

    LocalStack(Path root, boolean cluster, boolean tracing, Map<String, String> environment) {
        this.root = root;
        this.runDir = root.resolve(".run");
        this.cluster = cluster;
        this.tracing = tracing;
        String asked = environment.get(BIND_ADDRESS_VARIABLE);
        this.bindAddress = asked == null || asked.isBlank() ? LOOPBACK : asked.strip();
    }

    /** The address every service's server binds ({@code server.address}). */
    String bindAddress() {
        return bindAddress;
    }

    /**
     * The stack as it was last started: a cluster when {@code up --cluster} left its marker, without tracing when
     * {@code up --no-tracing} left its.
     */
    public static LocalStack asStarted(Path root) {
        return new LocalStack(root, Files.exists(root.resolve(".run").resolve("kafka-cluster")),
                !Files.exists(root.resolve(".run").resolve(NO_TRACING_MARKER)));
    }

    private static final String NO_TRACING_MARKER = "no-tracing";

    boolean tracing() {
        return tracing;
    }

    Path root() {
        return root;
    }

    Path runDir() {
        return runDir;
    }

    boolean cluster() {
        return cluster;
    }

    List<KafkaNode> kafkaNodes() {
        if (!cluster) {
            return List.of(new KafkaNode(this, 1, 1));
        }
        List<KafkaNode> nodes = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            nodes.add(new KafkaNode(this, id, 3));
        }
        return nodes;
    }

    String bootstrapServers() {
        return kafkaNodes().stream().map(node -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
    }

    /** Every component, in start order; {@code down} stops them in reverse. */
    List<Component> components(String adminPassword) {
        List<Component> components = new ArrayList<>();
        components.add(new RabbitMq(this));
        components.addAll(kafkaNodes());
        components.add(new Prometheus(this));
        if (tracing) {
            components.add(new ZipkinNode(this));
        }
        for (StackManifest.Service service : StackManifest.get().services()) {
            components.add(new ServiceNode(this, service.module(), service.port(), adminPassword));
        }
        return components;
    }

    void markCluster() {
        try {
            Files.createDirectories(runDir);
            Path marker = runDir.resolve("kafka-cluster");
            if (cluster) {
                Files.writeString(marker, "three local brokers: up --cluster\n");
            }
            else {
                Files.deleteIfExists(marker);
            }
            Path noTracing = runDir.resolve(NO_TRACING_MARKER);
            if (tracing) {
                Files.deleteIfExists(noTracing);
            }
            else {
                Files.writeString(noTracing, "the services do not trace, Zipkin does not run: up --no-tracing\n");
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static String relative(Path root, Path path) {
        return root.relativize(path).toString();
    }
}
