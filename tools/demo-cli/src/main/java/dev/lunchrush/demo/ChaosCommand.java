package dev.lunchrush.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import dev.lunchrush.chaos.FaultSuite;
import dev.lunchrush.chaos.Scenario;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.processes.RepoRoot;

/** {@code ./demo chaos}: the fault suite against the stack of {@code ./demo up}, with the log as its oracle. */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = {"Run the fault suite against the stack of ./demo up (or up --cluster): each scenario streams orders, "
                + "does its fault (kill -9, SIGSTOP, a RabbitMQ restart, poison), streams on, waits for the readers, "
                + "then checks every acknowledged order against the log and the readers; backfill-kafka-kill kills the "
                + "broker under a backfill instead, backfill-kafka-freeze freezes it at the backfill's commits, and both check "
                + "the day, replayed, against it.",
            "Prints, per scenario: orders acknowledged (201), found in the log, counted by each reader, lost, duplicated, "
                + "refused (503) and of unknown outcome, and a verdict. Exit code 1 when any scenario fails.",
            "It switches the stack's act, kills and restarts its processes and restarts the machine's RabbitMQ "
                + "(rabbitmqctl stop_app/start_app): run it on a stack for testing, not during a class."})
public class ChaosCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAME", split = ",", converter = ScenarioConverter.class,
            completionCandidates = ScenarioNames.class,
            description = "run only these (repeat or separate with commas; default: all): ${COMPLETION-CANDIDATES}")
    private List<Scenario> scenarios = new ArrayList<>();

    @Option(names = "--rate", paramLabel = "R", defaultValue = "100",
            description = "orders per second while the faults happen (default: ${DEFAULT-VALUE})")
    private double rate;

    @Option(names = "--before", paramLabel = "D", defaultValue = "8s", converter = DurationConverter.class,
            description = "orders before each fault (default: ${DEFAULT-VALUE})")
    private Duration before;

    @Option(names = "--after", paramLabel = "D", defaultValue = "8s", converter = DurationConverter.class,
            description = "orders acknowledged after each fault, at the rate, before the stream stops (default: ${DEFAULT-VALUE})")
    private Duration after;

    @Option(names = "--seed", defaultValue = "20261129", description = "seed of the orders (default: ${DEFAULT-VALUE})")
    private long seed;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the table as JSON")
    private @Nullable Path json;

    @Override
    public Integer call() {
        if (!(rate > 0 && rate <= 2000)) {
            throw DemoException.badInput("--rate must be above 0 and at most 2000 orders/s, not " + rate);
        }
        if (before.isNegative() || before.isZero() || after.isNegative() || after.isZero()
                || before.toMinutes() >= 10 || after.toMinutes() >= 10) {
            throw DemoException.badInput("--before and --after must be between 1 s and 10 minutes");
        }
        FaultSuite.Settings settings = new FaultSuite.Settings(scenarios.isEmpty() ? Scenario.suite() : scenarios,
                rate, before, after, seed, json);
        boolean passed = new FaultSuite(settings, RepoRoot.find(), EndpointOptions.of(spec), spec.commandLine().getOut()).run();
        return passed ? 0 : ExitCodes.FAILED;
    }

    /** Every scenario's name, in the suite's order: the help lists them from the suite itself. */
    static final class ScenarioNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Scenario.suite().stream().map(Scenario::id).iterator();
        }
    }

    static final class ScenarioConverter implements ITypeConverter<Scenario> {
        @Override
        public Scenario convert(String value) {
            try {
                return Scenario.fromId(value);
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException(ex.getMessage());
            }
        }
    }
}
