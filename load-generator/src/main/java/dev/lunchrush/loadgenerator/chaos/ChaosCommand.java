package dev.lunchrush.loadgenerator.chaos;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import dev.lunchrush.loadgenerator.AdminPassword;
import dev.lunchrush.loadgenerator.Demo;
import dev.lunchrush.loadgenerator.DemoException;
import dev.lunchrush.loadgenerator.DurationConverter;
import dev.lunchrush.loadgenerator.RepoRoot;
import dev.lunchrush.loadgenerator.ServiceClient;
import dev.lunchrush.loadgenerator.launcher.StackControl;

/** {@code ./demo chaos}: the fault suite against the stack of {@code ./demo up}, with the log as its oracle. */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = {"Run the fault suite against the stack of ./demo up (or up --cluster): each scenario streams orders, "
                + "does its fault (kill -9, SIGSTOP, a RabbitMQ restart, poison), streams on, waits for the readers, "
                + "then checks every acknowledged order against the log and the readers; backfill-kafka-kill kills the "
                + "broker under a backfill instead and checks the day, replayed, against it.",
            "Prints, per scenario: orders acknowledged (201), found in the log, counted by each reader, lost, duplicated, "
                + "refused (503) and of unknown outcome, and a verdict. Exit code 1 when any scenario fails.",
            "It switches the stack's act, kills and restarts its processes and restarts the machine's RabbitMQ "
                + "(rabbitmqctl stop_app/start_app): run it on a stack for testing, not during a class.",
            "Scenarios: kafka-kill, kafka-freeze, order-service-kill, kitchen-screen-kill, analytics-dashboard-kill, poison, "
                + "rabbitmq-restart-shared-queue, rabbitmq-restart-memory-feed, backfill-kafka-kill."})
public class ChaosCommand implements Callable<Integer> {

    @ParentCommand
    private Demo demo;

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAME", split = ",", converter = ScenarioConverter.class,
            description = "run only these (repeat or separate with commas; default: all)")
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
        Path root = RepoRoot.find();
        PrintWriter out = spec.commandLine().getOut();
        StackControl stack = StackControl.asStarted(root);
        ServiceClient orderService = new ServiceClient("order-service", demo.endpoints().orderService(),
                () -> AdminPassword.require(root));
        String rabbitUser = System.getenv().getOrDefault("SPRING_RABBITMQ_USERNAME", "guest");
        String rabbitPassword = System.getenv().getOrDefault("SPRING_RABBITMQ_PASSWORD", "guest");
        Readers readers = new Readers(demo.endpoints(), java.net.URI.create("http://127.0.0.1:15672"), rabbitUser, rabbitPassword);
        String previousAct = ServiceClient.text(orderService.get("/api/act"), "act");

        List<Scenario> chosen = scenarios.isEmpty() ? Arrays.asList(Scenario.values()) : scenarios;
        out.println("chaos: " + chosen.size() + " scenarios at " + (long) rate + " orders/s against "
                + (stack.cluster() ? "three Kafka brokers (" + stack.bootstrapServers() + ")" : "one Kafka broker ("
                        + stack.bootstrapServers() + ")") + "; the oracle is the log, read back");
        out.flush();
        ServiceClient replayer = new ServiceClient("report-replayer", demo.endpoints().reportReplayer(),
                () -> AdminPassword.require(root));
        FaultSuite suite = new FaultSuite(stack, orderService, replayer, readers,
                new FaultSuite.Settings(rate, before, after, seed, rabbitUser, rabbitPassword), out);
        List<Result> results = new ArrayList<>();
        for (Scenario scenario : chosen) {
            results.add(suite.run(scenario));
        }
        out.println();
        ChaosTable.print(results, out);
        try {
            orderService.put("/admin/act", Map.of("act", previousAct), true);
            out.println("act is " + previousAct + " again, as before the suite");
        }
        catch (DemoException ex) {
            out.println("could not put the stack back in act " + previousAct + ": " + ex.getMessage());
        }
        if (json != null) {
            writeJson(json, results, stack.cluster());
            out.println("JSON written to " + json);
        }
        out.flush();
        return results.stream().allMatch(Result::passed) ? 0 : Demo.EXIT_FAILED;
    }

    private void writeJson(Path file, List<Result> results, boolean cluster) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("ratePerSecond", rate);
        document.put("cluster", cluster);
        document.put("scenarios", results.stream().map(result -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("scenario", result.scenario());
            row.put("act", result.act());
            row.put("acknowledged", result.acknowledged());
            row.put("inLog", result.inLog() < 0 ? null : result.inLog());
            row.put("countedByKitchenScreen", result.kitchen() < 0 ? null : result.kitchen());
            row.put("countedByDashboard", result.dashboard() < 0 ? null : result.dashboard());
            row.put("lost", result.lost());
            row.put("duplicated", result.duplicated());
            row.put("refused503", result.refused());
            row.put("unknownOutcome", result.unknown());
            row.put("writtenWithout201", result.extra());
            row.put("slowestAnswerMillis", result.slowestMillis());
            row.put("verdict", result.verdict());
            row.put("notes", result.notes());
            row.put("failures", result.failures());
            return row;
        }).toList());
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            ServiceClient.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), document);
        }
        catch (IOException | RuntimeException ex) {
            throw new DemoException("could not write " + file + ": " + ex.getMessage());
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
