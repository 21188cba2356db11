package dev.lunchrush.loadgenerator.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker in KRaft mode (broker and controller in one JVM), run from the jars that
 * {@code infra/kafka-broker} copies to {@code target/lib}. One node on 9092 (controller 9093), or, for
 * {@code up --cluster}, three on 9092/9094/9096 (controllers 9093/9095/9097) with replication factor 3
 * and {@code min.insync.replicas=2}.
 */
final class KafkaNode implements Component {

    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final int LOG_TAIL = 12;

    private final LocalStack stack;
    private final int nodeId;
    private final int clusterSize;
    private final ManagedProcess process;

    KafkaNode(LocalStack stack, int nodeId, int clusterSize) {
        this.stack = stack;
        this.nodeId = nodeId;
        this.clusterSize = clusterSize;
        this.process = new ManagedProcess(name(), stack.runDir(), propertiesFile().toString());
    }

    ManagedProcess process() {
        return process;
    }

    @Override
    public String name() {
        return clusterSize == 1 ? "kafka" : "kafka-" + nodeId;
    }

    int port() {
        return LocalStack.SINGLE_BROKER_PORT + 2 * (nodeId - 1);
    }

    int controllerPort() {
        return port() + 1;
    }

    private Path kafkaDir() {
        return stack.runDir().resolve("kafka");
    }

    private Path nodeDir() {
        return clusterSize == 1 ? kafkaDir() : kafkaDir().resolve("node-" + nodeId);
    }

    Path propertiesFile() {
        return nodeDir().resolve("server.properties");
    }

    private Path dataDir() {
        return nodeDir().resolve("data");
    }

    private Path libDir() {
        return stack.root().resolve("infra").resolve("kafka-broker").resolve("target").resolve("lib");
    }

    private String url() {
        return "127.0.0.1:" + port();
    }

    @Override
    public void start() {
        if (process.running().isPresent()) {
            return;
        }
        if (!Files.isDirectory(libDir())) {
            return;
        }
        if (Probe.portOpen("127.0.0.1", port())) {
            return; // a broker that ./demo did not start: await() says so
        }
        writeConfiguration();
        if (!Files.exists(dataDir().resolve("meta.properties"))) {
            format();
        }
        List<String> command = new ArrayList<>(List.of(javaBin(), "-Xmx512m", "-Xms512m", "-XX:+UseG1GC",
                "-XX:MaxGCPauseMillis=20", "-Djava.awt.headless=true",
                "-Dlog4j.configuration=" + kafkaDir().resolve("log4j.properties").toUri(),
                "-cp", libDir() + "/*", "kafka.Kafka", propertiesFile().toString()));
        process.start(command, Map.of(), stack.root());
    }

    @Override
    public Row await(Instant deadline) {
        if (!Files.isDirectory(libDir())) {
            return notBuilt();
        }
        while (true) {
            boolean ours = process.running().isPresent();
            if (!ours && !Probe.portOpen("127.0.0.1", port()) && process.recordedPid().isPresent()) {
                return Row.failed(name(), process.pidText(), url(), "failed: the broker exited", process.problem(LOG_TAIL));
            }
            if (Probe.kafkaUp(url(), 1)) {
                return ours ? Row.ok(name(), process.pidText(), url(), "up")
                        : Row.ok(name(), "-", url(), "up (not started by ./demo)");
            }
            if (Instant.now().isAfter(deadline)) {
                return Row.failed(name(), process.pidText(), url(), "failed: no answer in time", process.problem(LOG_TAIL));
            }
            ManagedProcess.sleep(Duration.ofMillis(500));
        }
    }

    @Override
    public Row status() {
        if (!Files.isDirectory(libDir())) {
            return notBuilt();
        }
        return process.status(name(), url(), Probe.kafkaUp(url(), 1), "running, not answering", LOG_TAIL);
    }

    @Override
    public String stop() {
        return process.stop(GRACE);
    }

    private Row notBuilt() {
        return Row.failed(name(), "-", url(), "missing: Kafka's jars are not built",
                List.of("expected " + libDir() + "; build them with ./mvnw -q -DskipTests package"));
    }

    void writeConfiguration() {
        String quorum = clusterSize == 1
                // a single-node dynamic quorum, formatted with --standalone
                ? "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort()
                // three static voters: every node knows the quorum from its configuration
                : "controller.quorum.voters=" + IntStream.rangeClosed(1, clusterSize)
                        .mapToObj(id -> id + "@127.0.0.1:" + (LocalStack.SINGLE_BROKER_PORT + 2 * (id - 1) + 1))
                        .collect(Collectors.joining(","));
        String properties = resource("kafka-server.properties")
                .replace("@NODE_ID@", String.valueOf(nodeId))
                .replace("@QUORUM@", quorum)
                .replace("@PORT@", String.valueOf(port()))
                .replace("@CONTROLLER_PORT@", String.valueOf(controllerPort()))
                .replace("@LOG_DIRS@", dataDir().toString())
                .replace("@REPLICATION_FACTOR@", String.valueOf(clusterSize == 1 ? 1 : 3))
                .replace("@MIN_INSYNC_REPLICAS@", String.valueOf(clusterSize == 1 ? 1 : 2));
        try {
            Files.createDirectories(dataDir());
            Files.writeString(propertiesFile(), properties);
            Files.writeString(kafkaDir().resolve("log4j.properties"), resource("kafka-log4j.properties"));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** {@code kafka-storage format}: once, before the first start, with the stack's cluster id. */
    private void format() {
        List<String> command = new ArrayList<>(List.of(javaBin(), "-Xmx256m",
                "-Dlog4j.configuration=" + kafkaDir().resolve("log4j.properties").toUri(),
                "-cp", libDir() + "/*", "kafka.tools.StorageTool", "format",
                "--cluster-id", clusterId(), "--config", propertiesFile().toString()));
        if (clusterSize == 1) {
            command.add("--standalone");
        }
        try {
            Files.createDirectories(process.logFile().getParent());
            Process format = new ProcessBuilder(command)
                    .directory(stack.root().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(process.logFile().toFile()))
                    .start();
            if (!format.waitFor(90, TimeUnit.SECONDS)) {
                format.destroyForcibly();
                throw new IllegalStateException("kafka-storage format did not finish in 90 s; see " + process.logFile());
            }
            if (format.exitValue() != 0) {
                throw new IllegalStateException("kafka-storage format failed (exit " + format.exitValue() + "); see "
                        + process.logFile());
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", ex);
        }
    }

    private String clusterId() {
        Path file = kafkaDir().resolve("cluster-id");
        try {
            if (Files.isRegularFile(file)) {
                return Files.readString(file).strip();
            }
            String id = Uuid.randomUuid().toString();
            Files.createDirectories(kafkaDir());
            Files.writeString(file, id + "\n");
            return id;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String resource(String name) {
        try (InputStream in = KafkaNode.class.getResourceAsStream("/launcher/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource /launcher/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
