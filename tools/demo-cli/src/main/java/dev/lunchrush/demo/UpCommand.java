package dev.lunchrush.demo;

import java.time.Duration;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import dev.lunchrush.localstack.Launcher;
import dev.lunchrush.localstack.LocalStack;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.processes.RepoRoot;

/** {@code ./demo up}. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Start the whole stack on this machine without Docker: a real Kafka broker (KRaft), the local "
                + "RabbitMQ, Prometheus where installed, Zipkin, and every service. Idempotent: starts only what is not "
                + "running (a dead service included) and leaves the rest alone.",
            "Files under .run/: <name>.pid, logs/<name>.log, data/<name>/, kafka/."})
public class UpCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--cluster", description = "three local Kafka brokers (9092, 9094, 9096), replication factor 3, "
            + "min.insync.replicas 2, instead of one")
    private boolean cluster;

    @Option(names = "--no-tracing", negatable = false, description = "leave Zipkin out, and the services make no "
            + "traces (by default they trace one order in ten, to Zipkin on 127.0.0.1:9411)")
    private boolean noTracing;

    @Option(names = "--timeout", defaultValue = "240", paramLabel = "SECONDS",
            description = "how long to wait for the services to be healthy (default: ${DEFAULT-VALUE})")
    private int timeoutSeconds;

    @Override
    public Integer call() {
        Launcher launcher = new Launcher(new LocalStack(RepoRoot.find(), cluster, !noTracing), spec.commandLine().getOut());
        return launcher.up(Duration.ofSeconds(timeoutSeconds)) ? ExitCodes.DONE : ExitCodes.FAILED;
    }
}
