package dev.lunchrush.processes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One Kafka node in KRaft mode (broker and controller in one JVM) on 127.0.0.1, run from the jars that
 * {@code tools/kafka-broker} copies to {@code target/lib}: its folder ({@code server.properties},
 * {@code log4j.properties}, {@code data/}), the storage format before its first start, and the command line that
 * runs it. It starts nothing by itself: {@code ./demo up} runs the command detached (local-stack's
 * {@code KafkaNode}), tests run it as a child of their JVM on ports of their own. Its data folder outlives a kill,
 * so a restart finds the log where it was.
 */
public final class KafkaBroker {

    private static final long FORMAT_TIMEOUT_SECONDS = 120;

    private final Path libDir;
    private final Path dir;
    private final int nodeId;
    private final int port;
    private final int controllerPort;
    /** {@code null} for a node alone (a single-node dynamic quorum); else the static voters of a cluster. */
    private final String voters;

    private KafkaBroker(Path libDir, Path dir, int nodeId, int port, int controllerPort, String voters) {
        this.libDir = libDir;
        this.dir = dir.toAbsolutePath();
        this.nodeId = nodeId;
        this.port = port;
        this.controllerPort = controllerPort;
        this.voters = voters;
    }

    /** A node alone in {@code dir}: its own single-node quorum (formatted {@code --standalone}), replication 1. */
    public static KafkaBroker standalone(Path root, Path dir, int port, int controllerPort) {
        return new KafkaBroker(libDir(root), dir, 1, port, controllerPort, null);
    }

    /**
     * Node {@code nodeId} of a cluster whose quorum is {@code voters} ({@code id@host:port,…}): replication
     * factor 3 and {@code min.insync.replicas=2}.
     */
    public static KafkaBroker member(Path root, Path dir, int nodeId, int port, int controllerPort, String voters) {
        return new KafkaBroker(libDir(root), dir, nodeId, port, controllerPort, voters);
    }

    /** Where {@code tools/kafka-broker} puts Kafka's jars. */
    public static Path libDir(Path root) {
        return root.resolve("tools").resolve("kafka-broker").resolve("target").resolve("lib");
    }

    /** Kafka's jars are there: {@code ./mvnw -q -DskipTests package -pl tools/kafka-broker} has run. */
    public boolean built() {
        return Files.isDirectory(libDir);
    }

    public Path libDir() {
        return libDir;
    }

    public int port() {
        return port;
    }

    public int controllerPort() {
        return controllerPort;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public Path propertiesFile() {
        return dir.resolve("server.properties");
    }

    private Path log4jFile() {
        return dir.resolve("log4j.properties");
    }

    private Path dataDir() {
        return dir.resolve("data");
    }

    /** The storage is formatted: the node has started before, or {@link #format} ran. */
    public boolean formatted() {
        return Files.exists(dataDir().resolve("meta.properties"));
    }

    /** It accepts connections on its port (it may not have joined its quorum yet). */
    public boolean listening() {
        return Probe.portOpen("127.0.0.1", port);
    }

    /** Writes {@code server.properties} from the template and Kafka's logging (to stdout). */
    public void writeConfiguration() {
        boolean alone = voters == null;
        String properties = resource("server.properties")
                .replace("@NODE_ID@", String.valueOf(nodeId))
                .replace("@QUORUM@", alone
                        ? "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort
                        : "controller.quorum.voters=" + voters)
                .replace("@PORT@", String.valueOf(port))
                .replace("@CONTROLLER_PORT@", String.valueOf(controllerPort))
                .replace("@LOG_DIRS@", dataDir().toString())
                .replace("@REPLICATION_FACTOR@", alone ? "1" : "3")
                .replace("@MIN_INSYNC_REPLICAS@", alone ? "1" : "2");
        try {
            Files.createDirectories(dataDir());
            Files.writeString(propertiesFile(), properties);
            Files.writeString(log4jFile(), resource("log4j.properties"));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** {@code kafka-storage format} with {@code clusterId}, once before the first start; output appended to {@code logFile}. */
    public void format(String clusterId, Path logFile) {
        List<String> command = java(List.of("-Xmx256m"), "kafka.tools.StorageTool", "format", "--cluster-id",
                clusterId, "--config", propertiesFile().toString());
        if (voters == null) {
            command.add("--standalone");
        }
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            Process format = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
            if (!format.waitFor(FORMAT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                format.destroyForcibly();
                throw new IllegalStateException("kafka-storage format did not finish in " + FORMAT_TIMEOUT_SECONDS
                        + " s; see " + logFile);
            }
            if (format.exitValue() != 0) {
                throw new IllegalStateException("kafka-storage format failed (exit " + format.exitValue() + "); see " + logFile);
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

    /** The command line that runs the node: a fixed 512 MB heap and G1 with short pauses. */
    public List<String> command() {
        return java(List.of("-Xmx512m", "-Xms512m", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
                "-Djava.awt.headless=true"), "kafka.Kafka", propertiesFile().toString());
    }

    /** {@code java} with the options, Kafka's logging and jars, the main class and its arguments. */
    private List<String> java(List<String> options, String main, String... arguments) {
        if (!built()) {
            throw new IllegalStateException(libDir + " is missing: build Kafka's jars first "
                    + "(./mvnw -q -DskipTests package -pl tools/kafka-broker)");
        }
        List<String> command = new ArrayList<>();
        command.add(javaBin());
        command.addAll(options);
        command.addAll(List.of("-Dlog4j.configuration=" + log4jFile().toUri(), "-cp", libDir + "/*", main));
        command.addAll(List.of(arguments));
        return command;
    }

    /** The {@code java} of the JVM that runs this code. */
    public static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String resource(String name) {
        try (InputStream in = KafkaBroker.class.getResourceAsStream("/lunchrush/kafka/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource /lunchrush/kafka/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
