package dev.lunchrush.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.processes.KafkaBroker;
import dev.lunchrush.processes.Signals;

/**
 * A real single-node KRaft broker ({@link KafkaBroker}, as {@code ./demo up} runs it) as a child of the test JVM,
 * on free ports of 127.0.0.1: for the tests that kill a broker with {@code kill -9} or freeze it
 * ({@code kill -STOP}), which an in-process broker cannot stand for. Its data folder outlives a kill, so a
 * restart finds the log where it was.
 */
public final class KafkaBrokerProcess implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(KafkaBrokerProcess.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final KafkaBroker broker;
    private final Path logFile;
    private Process process;

    private KafkaBrokerProcess(KafkaBroker broker, Path logFile) {
        this.broker = broker;
        this.logFile = logFile;
    }

    /** Formats the storage in {@code dir} and starts the broker; returns once it accepts connections. */
    public static KafkaBrokerProcess start(Path dir) {
        KafkaBroker broker = KafkaBroker.standalone(ServiceProcess.projectRoot(), dir, FreePorts.next(), FreePorts.next());
        broker.writeConfiguration();
        KafkaBrokerProcess started = new KafkaBrokerProcess(broker, dir.resolve("broker.log"));
        broker.format(Uuid.randomUuid().toString(), started.logFile);
        started.restart();
        return started;
    }

    public String bootstrapServers() {
        return broker.bootstrapServers();
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
        Signals.send(process.pid(), "STOP");
        log.info("sent SIGSTOP to the Kafka broker (pid {})", process.pid());
    }

    /** {@code kill -CONT}: the frozen process goes on where it stood. */
    public void thaw() {
        Signals.send(process.pid(), "CONT");
        log.info("sent SIGCONT to the Kafka broker (pid {})", process.pid());
    }

    /** Starts the broker again on its data and ports; returns once it accepts connections. */
    public void restart() {
        try {
            process = ChildProcesses.start(new ProcessBuilder(broker.command()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        ChildProcesses.awaitReady(process, broker::listening, START_TIMEOUT, "the Kafka broker", logFile);
        log.info("Kafka broker as pid {} on {}, log {}", process.pid(), bootstrapServers(), logFile);
    }

    @Override
    public void close() {
        if (process != null) {
            ChildProcesses.stop(process, Duration.ofSeconds(30));
        }
    }
}
