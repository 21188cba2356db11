package dev.lunchrush.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.common.Uuid;

import dev.lunchrush.processes.KafkaBroker;
import dev.lunchrush.processes.Probe;

/**
 * A real Kafka broker in KRaft mode (broker and controller in one JVM), run from the jars that
 * {@code tools/kafka-broker} copies to {@code target/lib}. One node on 9092 (controller 9093), or, for
 * {@code up --cluster}, three on 9092/9094/9096 (controllers 9093/9095/9097) with replication factor 3
 * and {@code min.insync.replicas=2}.
 */
final class KafkaNode implements Component {

    private static final Duration GRACE = Duration.ofSeconds(30);
    private static final int LOG_TAIL = 12;

    private final LocalStack stack;
    private final int nodeId;
    private final int clusterSize;
    private final KafkaBroker broker;
    private final ManagedProcess process;

    KafkaNode(LocalStack stack, int nodeId, int clusterSize) {
        this.stack = stack;
        this.nodeId = nodeId;
        this.clusterSize = clusterSize;
        this.broker = clusterSize == 1
                ? KafkaBroker.standalone(stack.root(), nodeDir(), port(), controllerPort())
                // three static voters: every node knows the quorum from its configuration
                : KafkaBroker.member(stack.root(), nodeDir(), nodeId, port(), controllerPort(),
                        IntStream.rangeClosed(1, clusterSize)
                                .mapToObj(id -> id + "@127.0.0.1:" + (LocalStack.SINGLE_BROKER_PORT + 2 * (id - 1) + 1))
                                .collect(Collectors.joining(",")));
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
        return broker.propertiesFile();
    }

    private String url() {
        return "127.0.0.1:" + port();
    }

    @Override
    public void start() {
        if (process.running().isPresent()) {
            return;
        }
        if (!broker.built()) {
            return;
        }
        if (Probe.portOpen("127.0.0.1", port())) {
            return; // a broker that ./demo did not start: await() says so
        }
        broker.writeConfiguration();
        if (!broker.formatted()) {
            broker.format(clusterId(), process.logFile());
        }
        process.start(broker.command(), Map.of(), stack.root());
    }

    @Override
    public Row await(Instant deadline) {
        if (!broker.built()) {
            return notBuilt();
        }
        while (true) {
            boolean ours = process.running().isPresent();
            if (!ours && !Probe.portOpen("127.0.0.1", port()) && process.recordedPid().isPresent()) {
                return Row.failed(name(), process.pidText(), url(), process.exitedState("the broker"), process.problem(LOG_TAIL));
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
        if (!broker.built()) {
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
                List.of("expected " + broker.libDir() + "; build them with ./mvnw -q -DskipTests package"));
    }

    void writeConfiguration() {
        broker.writeConfiguration();
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
}
