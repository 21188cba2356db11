package dev.lunchrush.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft broker in a JVM of its own, from the jars that {@code infra/kafka-broker}
 * copies to {@code target/lib}, on free ports of 127.0.0.1: for the tests that kill a broker with
 * {@code kill -9} or freeze it ({@code kill -STOP}), which an in-process broker cannot stand for. Its data folder outlives
 * a kill, so a restart finds the log where it was.
 */
public final class KafkaBrokerProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaBrokerProcess.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Path dir;
    private final int port;
    private final Path properties;
    private final Path logFile;
    private Process process;

    private KafkaBrokerProcess(Path dir, int port, Path properties) {
        this.dir = dir;
        this.port = port;
        this.properties = properties;
        this.logFile = dir.resolve("broker.log");
    }

    /** Formats the storage in {@code dir} and starts the broker; returns once it accepts connections. */
    public static KafkaBrokerProcess start(Path dir) {
        try {
            Files.createDirectories(dir);
            int port = freePort();
            int controllerPort = freePort();
            Path properties = dir.resolve("server.properties");
            Files.writeString(properties, String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "controller.listener.names=CONTROLLER",
                    "inter.broker.listener.name=PLAINTEXT",
                    "log.dirs=" + dir.resolve("data").toAbsolutePath(),
                    "auto.create.topics.enable=false",
                    "num.partitions=3",
                    "offsets.topic.replication.factor=1",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "share.coordinator.state.topic.replication.factor=1",
                    "share.coordinator.state.topic.min.isr=1",
                    "group.initial.rebalance.delay.ms=0",
                    ""));
            KafkaBrokerProcess broker = new KafkaBrokerProcess(dir, port, properties);
            broker.run("-Xmx256m", "kafka.tools.StorageTool", "format", "--cluster-id", Uuid.randomUuid().toString(),
                    "--config", properties.toString(), "--standalone");
            broker.restart();
            return broker;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    public long pid() {
        return process.pid();
    }

    /** {@code kill -9}: the process ends at once, nothing flushed, nothing said to anyone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        log.info("killed the Kafka broker (pid {})", process.pid());
    }

    /** {@code kill -STOP}: the process stands still, its connections open, answering nothing. */
    public void freeze() {
        signal("STOP");
    }

    /** {@code kill -CONT}: the frozen process goes on where it stood. */
    public void thaw() {
        signal("CONT");
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
            log.info("sent SIG{} to the Kafka broker (pid {})", name, process.pid());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Starts the broker again on its data and ports; returns once it accepts connections. */
    public void restart() {
        List<String> command = command("-Xmx512m", "kafka.Kafka", properties.toString());
        try {
            process = ChildProcesses.start(new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!accepts()) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Kafka broker exited with " + process.exitValue() + "; see " + logFile);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Kafka broker did not listen within " + START_TIMEOUT + "; see " + logFile);
            }
            sleep(200);
        }
        log.info("Kafka broker as pid {} on {}, log {}", process.pid(), bootstrapServers(), logFile);
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    private void run(String heap, String... arguments) throws IOException {
        Process tool = ChildProcesses.start(new ProcessBuilder(command(heap, arguments)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())));
        try {
            if (!tool.waitFor(120, TimeUnit.SECONDS) || tool.exitValue() != 0) {
                tool.destroyForcibly();
                throw new IllegalStateException(String.join(" ", arguments) + " failed; see " + logFile);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private List<String> command(String heap, String... mainAndArguments) {
        Path lib = ServiceProcess.projectRoot().resolve("infra").resolve("kafka-broker").resolve("target").resolve("lib");
        if (!Files.isDirectory(lib)) {
            throw new IllegalStateException(lib + " is missing: build Kafka's jars first (./mvnw package -pl infra/kafka-broker)");
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                heap, "-cp", lib + "/*"));
        command.addAll(List.of(mainAndArguments));
        return command;
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
