package dev.lunchrush.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.localstack.StackManifest;

/**
 * Finds the processes of the stack of {@code ./demo up} on this machine: the lesson's services of the
 * {@link StackManifest} and the Kafka brokers by their pid files (else by the port they listen on), RabbitMQ and
 * Prometheus by theirs; and reads their JIT compilers' ticks.
 */
final class StackProcesses {

    static final int RABBITMQ_PORT = StackManifest.get().port("rabbitmq");
    static final int PROMETHEUS_PORT = StackManifest.get().port("prometheus");

    /** A process to measure and how it was found; {@code pid} is null when it was not ({@code how} then says why). */
    record Target(String name, @Nullable Long pid, String how) {
    }

    private final Path root;
    private final List<String> kafkaBrokers;
    private final String bootstrapServers;

    StackProcesses(Path root, List<String> kafkaBrokers, String bootstrapServers) {
        this.root = root;
        this.kafkaBrokers = kafkaBrokers;
        this.bootstrapServers = bootstrapServers;
    }

    /** Every process of the stack, found by the pid files of {@code ./demo up}, else by the port it listens on. */
    List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        for (StackManifest.Service service : StackManifest.get().lessonServices()) {
            targets.add(byPidFile(service.name(), service.module(), service.port()));
        }
        String[] servers = bootstrapServers.split(",");
        for (int i = 0; i < kafkaBrokers.size(); i++) {
            int port = i < servers.length ? Integer.parseInt(servers[i].substring(servers[i].lastIndexOf(':') + 1).strip()) : -1;
            targets.add(byPidFile(kafkaBrokers.get(i), "kafka", port));
        }
        OptionalLong rabbit = ProcStat.listeningPid(RABBITMQ_PORT);
        targets.add(rabbit.isPresent() ? new Target("rabbitmq", rabbit.getAsLong(), "owner of :" + RABBITMQ_PORT + " ("
                + ProcStat.read(rabbit.getAsLong()).map(ProcStat.Process::comm).orElse("?") + ")")
                : new Target("rabbitmq", null, "RabbitMQ's process cannot be found: nothing this user can see listens on :"
                        + RABBITMQ_PORT + " (/proc/net/tcp and /proc/*/fd; another user's process needs root)"));
        Target prometheus = byPidFile("prometheus", "prometheus", PROMETHEUS_PORT);
        targets.add(prometheus.pid() != null ? prometheus : new Target("prometheus", null, "not running (no .run/prometheus.pid, "
                + "nothing on :" + PROMETHEUS_PORT + ")"));
        return targets;
    }

    /**
     * The process in {@code .run/<name>.pid} when it is alive and its command line names what it runs (a pid may have
     * been reused, as {@code ./demo up} itself checks), else the process listening on its port.
     */
    private Target byPidFile(String name, String marker, int port) {
        Path pidFile = root.resolve(".run").resolve(name + ".pid");
        try {
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip());
            Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(handle -> handle.info().commandLine().map(line -> line.contains(marker)).orElse(true));
            if (process.isPresent()) {
                return new Target(name, pid, ".run/" + name + ".pid");
            }
        }
        catch (IOException | NumberFormatException ex) {
            // no pid file: ask the port
        }
        OptionalLong owner = port > 0 ? ProcStat.listeningPid(port) : OptionalLong.empty();
        return owner.isPresent() ? new Target(name, owner.getAsLong(), "owner of :" + port)
                : new Target(name, null, "no live process in .run/" + name + ".pid" + (port > 0 ? " nor on :" + port : ""));
    }

    /**
     * The ticks of the JIT compiler threads of every JVM of the stack (all but RabbitMQ, Erlang, and Prometheus, Go) and
     * of this one (the driver's), by process name.
     */
    static Map<String, Long> compilerTicks(List<Target> targets) {
        Map<String, Long> compilers = new LinkedHashMap<>();
        for (Target target : targets) {
            if (target.pid() != null && !target.name().equals("rabbitmq") && !target.name().equals("prometheus")) {
                compilers.put(target.name(), ProcStat.compilerTicks(target.pid()));
            }
        }
        compilers.put(CpuFigures.DRIVER, ProcStat.compilerTicks(ProcessHandle.current().pid()));
        return compilers;
    }
}
