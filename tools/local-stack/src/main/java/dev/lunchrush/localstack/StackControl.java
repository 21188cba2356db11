package dev.lunchrush.localstack;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.processes.Signals;

/**
 * The faults {@code ./demo chaos} does to the stack {@code ./demo up} started: {@code kill -9}, {@code SIGSTOP}
 * and {@code SIGCONT} of one of its processes (found by its pid file, and only when the process really is the one
 * {@code up} started), a restart of it the way {@code up} starts it, and a restart of the machine's RabbitMQ.
 */
public final class StackControl {

    private static final Duration RABBITMQ_TIMEOUT = Duration.ofSeconds(120);

    private final LocalStack stack;

    private StackControl(LocalStack stack) {
        this.stack = stack;
    }

    /** The stack as {@code up} (or {@code up --cluster}) left it under the repository root. */
    public static StackControl asStarted(Path root) {
        return new StackControl(LocalStack.asStarted(root));
    }

    public boolean cluster() {
        return stack.cluster();
    }

    public String bootstrapServers() {
        return stack.bootstrapServers();
    }

    /** {@code kafka}, or {@code kafka-1} … {@code kafka-3} for a cluster. */
    public List<String> kafkaBrokers() {
        return stack.kafkaNodes().stream().map(KafkaNode::name).toList();
    }

    /** The pid of a process of {@code ./demo up} ({@code order-service}, {@code kafka}, …); fails when it is not running. */
    public long pid(String component) {
        return running(component).pid();
    }

    /** {@code kill -9}; returns the pid it killed once it is gone. */
    public long kill(String component) {
        ProcessHandle process = running(component);
        process.destroyForcibly();
        try {
            process.onExit().get(30, TimeUnit.SECONDS);
        }
        catch (Exception ex) {
            throw new DemoException(component + " (pid " + process.pid() + ") did not die of kill -9 within 30 s");
        }
        return process.pid();
    }

    /** {@code kill -STOP}: the process stands still, its sockets open, until {@link #thaw}. */
    public long freeze(String component) {
        return signal(component, "STOP");
    }

    /** {@code kill -CONT}. */
    public long thaw(String component) {
        return signal(component, "CONT");
    }

    /** Stops it as {@code down} does (SIGTERM, then SIGKILL after its grace period); what happened, in words. */
    public String stop(String component) {
        return component(component).stop();
    }

    /** Starts it again as {@code up} does, and waits until it is healthy; the row says how it ended. */
    public String restart(String component, Duration timeout) {
        Component target = component(component);
        target.start();
        Row row = target.await(Instant.now().plus(timeout));
        if (!row.healthy()) {
            throw new DemoException(component + " did not come back within " + timeout.toSeconds() + " s: " + row.state()
                    + " (" + String.join("; ", row.problem()) + ")");
        }
        return row.state();
    }

    /**
     * Restarts the machine's RabbitMQ broker: {@code rabbitmqctl stop_app} (every connection closed, every queue
     * stopped), then {@code rabbitmqctl start_app}, which recovers the durable queues and
     * their persistent messages from disk. The Erlang node itself stays up, so that nothing of the machine's
     * own set-up (its user, its service manager) is involved.
     */
    public void stopRabbitMq() {
        rabbitmqctl("stop_app");
    }

    public void startRabbitMq() {
        rabbitmqctl("start_app");
        RabbitMq rabbit = new RabbitMq(stack);
        Row row = rabbit.await(Instant.now().plus(RABBITMQ_TIMEOUT));
        if (!row.healthy()) {
            throw new DemoException("RabbitMQ did not come back: " + row.state());
        }
    }

    private void rabbitmqctl(String action) {
        Path ctl = RabbitMq.onPath("rabbitmqctl").orElseThrow(() -> new DemoException(
                "rabbitmqctl is not installed: the RabbitMQ restart needs the machine's RabbitMQ (apt-get install rabbitmq-server)"));
        try {
            Process process = new ProcessBuilder(ctl.toString(), "-q", action)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(RABBITMQ_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new DemoException("rabbitmqctl " + action + " did not finish within " + RABBITMQ_TIMEOUT.toSeconds() + " s");
            }
            if (process.exitValue() != 0) {
                throw new DemoException("rabbitmqctl " + action + " failed (exit " + process.exitValue() + "): " + output.strip());
            }
        }
        catch (IOException ex) {
            throw new DemoException("cannot run rabbitmqctl " + action + ": " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }

    private long signal(String component, String signal) {
        ProcessHandle process = running(component);
        try {
            Signals.send(process.pid(), signal);
        }
        catch (IllegalStateException ex) {
            throw new DemoException(ex.getMessage() + " (" + component + ")");
        }
        return process.pid();
    }

    private ProcessHandle running(String component) {
        Component target = component(component);
        ManagedProcess process;
        if (target instanceof KafkaNode node) {
            process = node.process();
        }
        else if (target instanceof ServiceNode node) {
            process = node.process();
        }
        else {
            throw new DemoException(component + " is not a process of ./demo up");
        }
        return process.running().orElseThrow(() -> new DemoException(component + " is not running as ./demo up started it "
                + "(no live process in " + process.pidFile() + "); the chaos suite needs the stack of ./demo up"));
    }

    private Component component(String name) {
        return stack.components(AdminPassword.findOrCreate(stack.root())).stream()
                .filter(component -> component.name().equals(name)).findFirst()
                .orElseThrow(() -> new DemoException("no component " + name + " in this stack"));
    }
}
