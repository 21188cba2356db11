package dev.lunchrush.chaos;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.common.TopicPartition;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Topology;
import dev.lunchrush.load.backfill.Backfill;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.localstack.StackControl;

/**
 * The backfill scenarios: a {@code ./demo backfill} of yesterday (UTC, the suite's seed) runs in the background while
 * the Kafka broker fails under it, and the backfill sends its refused batches again under their keys; once it has
 * finished, the day is replayed through the report replayer as {@code ./demo replay} does, and must hold exactly the
 * backfilled orders more than its replay before the backfill did, each once.
 * <ul>
 * <li>{@code backfill-kafka-kill}: {@value #KILL_ORDERS} orders; once a quarter of them is in the log, the broker is
 * killed ({@code kill -9}), left dead 10 s (20 s in a cluster) and restarted.</li>
 * <li>{@code backfill-kafka-freeze}: {@value #FREEZE_ORDERS} orders; {@value #FREEZES} times, spread over the backfill,
 * the broker is frozen ({@code SIGSTOP}) for 15 s at a batch's commit: the moment the log holds the batch's records
 * whole ({@value Backfill#MAX_BATCH} records of a transaction not yet committed), when the order service asks for the
 * commit next. Then Kafka either had the commit before it stood still, or gets it when it goes on, or never; the
 * order service must not answer "nothing written" for a batch that was, nor write one twice. The order service's
 * import counters say what the freezes met (commits asked again, answers of an unknown outcome, outcomes learnt).</li>
 * </ul>
 * The backfill runs with {@code --again}: its keys are its own (the suite run twice on one stack writes the day's
 * orders twice, as asked), and stay the same through its retries, which is what is tested.
 */
final class BackfillFault {

    static final int KILL_ORDERS = 20_000;
    static final int FREEZE_ORDERS = 50_000;
    static final int FREEZES = 3;
    static final Duration FREEZE = Duration.ofSeconds(15);

    private static final Duration BACKFILL_LIMIT = Duration.ofMinutes(5);
    private static final Duration REPLAY_LIMIT = Duration.ofMinutes(5);
    private static final Duration SERVICE_RESTART = Duration.ofSeconds(180);
    private static final List<String> IMPORT_COUNTERS = List.of("orders_import_commit_retries_total",
            "orders_import_unknown_total", "orders_import_resolved_total");

    private final StackControl stack;
    private final ServiceClient orderService;
    private final ServiceClient replayer;
    private final TheLog log;
    private final long seed;
    private final ScenarioConsole console;

    BackfillFault(StackControl stack, ServiceClient orderService, ServiceClient replayer, TheLog log, long seed,
            ScenarioConsole console) {
        this.stack = stack;
        this.orderService = orderService;
        this.replayer = replayer;
        this.log = log;
        this.seed = seed;
        this.console = console;
    }

    /** What the fault did: its part of the scenario's line, and why it did not meet the backfill (empty when it did). */
    private record Fault(String summary, String missed) {
    }

    Result run(Scenario scenario) {
        boolean freeze = scenario == Scenario.BACKFILL_KAFKA_FREEZE;
        int orders = freeze ? FREEZE_ORDERS : KILL_ORDERS;
        List<String> notes = new ArrayList<>();
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(1);
        long dayBefore = replay(scenario, day, "before the backfill");
        Map<TopicPartition, Long> mark = log.endOffsets(Topology.ORDERS_TOPIC);
        Map<String, Double> countersBefore = importCounters();

        StringWriter backfillOut = new StringWriter();
        StringWriter backfillErr = new StringWriter();
        CompletableFuture<Integer> backfill = start(orders, backfillOut, backfillErr);
        say(scenario, "backfill of %,d orders of %s (seed %d, --again) under way".formatted(orders, day, seed));
        String broker = stack.cluster() ? stack.kafkaBrokers().get(1) : stack.kafkaBrokers().get(0);
        Fault fault = freeze ? freezeOnCommits(scenario, broker, backfill, mark, orders, countersBefore, notes)
                : killAtQuarter(scenario, broker, backfill, mark, notes);
        int exit = await(backfill);
        String output = backfillOut.toString();
        List<String> retries = output.lines().filter(line -> line.contains("sending it again")).toList();
        retries.stream().limit(5).forEach(line -> notes.add("backfill: " + line));
        if (retries.size() > 5) {
            notes.add("backfill: … " + (retries.size() - 5) + " more");
        }
        output.lines().filter(line -> line.startsWith("Imported") || line.startsWith("Written by") || line.startsWith("Already"))
                .forEach(line -> notes.add("backfill: " + line));
        String error = exit == 0 ? "" : lastLine(backfillErr.toString());
        say(scenario, "backfill " + (exit < 0 ? "did not finish within " + BACKFILL_LIMIT.toSeconds() + " s" : "exited " + exit)
                + "; " + retries.size() + " batches sent again");
        if (freeze) {
            notes.add("order service's import: " + countersSince(countersBefore));
        }

        if (!LocalDate.now(ZoneOffset.UTC).minusDays(1).equals(day)) {
            throw new DemoException("midnight (UTC) passed during the scenario, so the backfill's yesterday may not be "
                    + day + ": run it again");
        }
        TheLog.Contents contents = log.read(mark, log.endOffsets(Topology.ORDERS_TOPIC));
        long dayAfter = replay(scenario, day, "after the backfill");
        BackfillOutcome outcome = new BackfillOutcome(day, orders, exit, error, fault.summary(), fault.missed(), dayBefore,
                dayAfter, contents.orderIds().size(), new HashSet<>(contents.orderIds()).size(), retries.size());
        notes.add(outcome.summary());
        List<String> failures = outcome.failures();
        long duplicated = Math.max(0, outcome.added() - orders) + (outcome.inLog() - outcome.distinctInLog());
        return new Result(scenario.id, scenario.act.id(), exit == 0 ? orders : 0, outcome.inLog(), -1, -1,
                Math.max(0, orders - outcome.added()), duplicated, retries.stream().filter(line -> line.contains(" 503")).count(),
                retries.stream().filter(line -> !line.contains(" answered ")).count(), 0, 0, notes, failures);
    }

    /** {@code kill -9} of the broker once a quarter of the backfill is in the log, dead 10 s (20 s in a cluster). */
    private Fault killAtQuarter(Scenario scenario, String broker, CompletableFuture<Integer> backfill,
            Map<TopicPartition, Long> mark, List<String> notes) {
        long writtenAtKill = awaitAppended(backfill, mark, KILL_ORDERS / 4);
        if (writtenAtKill < 0) {
            return new Fault("broker killed with the backfill already over",
                    "the backfill was over before the broker was killed: the fault did not meet it");
        }
        Duration dead = stack.cluster() ? Duration.ofSeconds(20) : Duration.ofSeconds(10);
        long pid = stack.kill(broker);
        say(scenario, "kill -9 %s (pid %d) with %,d records of the backfill in the log; dead for %d s"
                .formatted(broker, pid, writtenAtKill, dead.toSeconds()));
        Pause.sleep(dead);
        Instant restarting = Instant.now();
        String state = stack.restart(broker, SERVICE_RESTART);
        say(scenario, "%s %s again after %.1f s; waiting for the backfill to finish".formatted(broker, state,
                Duration.between(restarting, Instant.now()).toMillis() / 1000.0));
        notes.add(broker + " killed with " + writtenAtKill + " records of the backfill in the log, dead "
                + dead.toSeconds() + " s, restarted");
        return new Fault("broker killed with %,d records of it in the log".formatted(writtenAtKill), "");
    }

    /**
     * {@value #FREEZES} freezes of {@link #FREEZE}, the k-th once k/({@value #FREEZES} + 1) of the backfill is in the log
     * and then at the first moment a batch's records are all in it, uncommitted: its commit comes next.
     */
    private Fault freezeOnCommits(Scenario scenario, String broker, CompletableFuture<Integer> backfill,
            Map<TopicPartition, Long> mark, int orders, Map<String, Double> countersBefore, List<String> notes) {
        List<Long> uncommittedAtFreeze = new ArrayList<>();
        Instant deadline = Instant.now().plus(BACKFILL_LIMIT);
        // SIGCONT to a running process is nothing: the broker's pid, checked to be the one ./demo up started
        long brokerPid = stack.thaw(broker);
        try (TheLog.TransactionWatch watch = log.watchTransactions(Topology.ORDERS_TOPIC);
                QuickSignals signals = new QuickSignals()) {
            for (int freeze = 1; freeze <= FREEZES; freeze++) {
                long from = (long) orders * freeze / (FREEZES + 1);
                if (awaitAppended(backfill, mark, from) < 0) {
                    break;
                }
                long uncommitted = -1;
                while (!backfill.isDone() && Instant.now().isBefore(deadline)) {
                    uncommitted = watch.uncommitted();
                    if (uncommitted >= Backfill.MAX_BATCH) {
                        break;
                    }
                }
                if (uncommitted < Backfill.MAX_BATCH) {
                    break;
                }
                signals.send(brokerPid, "STOP");
                long pid = brokerPid;
                uncommittedAtFreeze.add(uncommitted);
                say(scenario, ("kill -STOP %s (pid %d): freeze %d of %d, with a batch's %,d records in the log and its "
                        + "commit not yet written; frozen for %d s").formatted(broker, pid, freeze, FREEZES, uncommitted,
                                FREEZE.toSeconds()));
                try {
                    Pause.sleep(FREEZE);
                }
                finally {
                    signals.send(brokerPid, "CONT");
                }
                say(scenario, "kill -CONT %s; the order service's import so far: %s".formatted(broker,
                        countersSince(countersBefore)));
            }
        }
        notes.add(broker + " frozen " + uncommittedAtFreeze.size() + " times for " + FREEZE.toSeconds()
                + " s, each with a whole batch in the log uncommitted (records: " + uncommittedAtFreeze + ")");
        String summary = "broker frozen %d × %d s at a batch's commit".formatted(uncommittedAtFreeze.size(), FREEZE.toSeconds());
        return uncommittedAtFreeze.size() == FREEZES ? new Fault(summary, "")
                : new Fault(summary, "only " + uncommittedAtFreeze.size() + " of " + FREEZES
                        + " freezes met a batch's commit: the backfill ended first");
    }

    /**
     * The backfill, in a thread of its own, as {@code ./demo backfill} runs it: its summary in {@code output}; its
     * progress, and the message that ended it, in {@code errors}; its exit code as the command's would be.
     */
    private CompletableFuture<Integer> start(int orders, StringWriter output, StringWriter errors) {
        Backfill.Settings settings = new Backfill.Settings(1, orders, ZoneOffset.UTC, Backfill.MAX_BATCH, seed, true,
                Duration.ofMinutes(2), Backfill.DEFAULT_IN_FLIGHT);
        PrintWriter out = new PrintWriter(output, true);
        PrintWriter err = new PrintWriter(errors, true);
        Backfill backfill = new Backfill(settings, Backfill.orderService(orderService.base()), out, err);
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                backfill.run();
                exit.complete(ExitCodes.DONE);
            }
            catch (DemoException ex) {
                err.println(ex.getMessage());
                exit.complete(ex.exitCode());
            }
            catch (RuntimeException ex) {
                err.println("backfill failed: " + ex);
                exit.complete(ExitCodes.FAILED);
            }
        }, "chaos-backfill");
        thread.setDaemon(true);
        thread.start();
        return exit;
    }

    /**
     * Waits until {@code records} of the backfill are in the log (at most its bound); how many then, or {@code -1} when
     * the backfill ended first.
     */
    private long awaitAppended(CompletableFuture<Integer> backfill, Map<TopicPartition, Long> mark, long records) {
        Instant deadline = Instant.now().plus(BACKFILL_LIMIT);
        try (TheLog.Watch watch = log.watch(Topology.ORDERS_TOPIC)) {
            while (!backfill.isDone() && Instant.now().isBefore(deadline)) {
                long appended = watch.appendedSince(mark);
                if (appended >= records) {
                    return appended;
                }
                Pause.sleep(Duration.ofMillis(100));
            }
        }
        return -1;
    }

    private int await(CompletableFuture<Integer> backfill) {
        try {
            return backfill.get(BACKFILL_LIMIT.toSeconds(), TimeUnit.SECONDS);
        }
        catch (TimeoutException ex) {
            return -1;
        }
        catch (ExecutionException ex) {
            return ExitCodes.FAILED;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }

    /**
     * The day replayed as {@code ./demo replay} does it ({@code POST /admin/replays}, its status polled until it is
     * over, then {@code GET /api/reports/{date}}): the orders the report counts.
     */
    private long replay(Scenario scenario, LocalDate day, String when) {
        JsonNode status = replayer.post("/admin/replays", Map.of("date", day.toString(), "zone", "UTC"), true);
        String id = ServiceClient.text(status, "id");
        Instant deadline = Instant.now().plus(REPLAY_LIMIT);
        while (!List.of("DONE", "FAILED").contains(ServiceClient.text(status, "state"))) {
            if (Instant.now().isAfter(deadline)) {
                throw new DemoException("the replay of %s %s did not finish within %d s".formatted(day, when,
                        REPLAY_LIMIT.toSeconds()));
            }
            Pause.sleep(Duration.ofMillis(500));
            status = replayer.get("/api/replays/" + id);
        }
        if (!"DONE".equals(ServiceClient.text(status, "state"))) {
            throw new DemoException("the replay of %s %s failed: %s".formatted(day, when, ServiceClient.text(status, "error")));
        }
        long orders = ServiceClient.number(replayer.get("/api/reports/" + day + "?zone=UTC"), "totalOrders");
        say(scenario, "replay of %s %s: %,d orders (%,d records read)".formatted(day, when, orders,
                ServiceClient.number(status, "read")));
        return orders;
    }

    /**
     * The order service's import counters ({@code /actuator/prometheus}), each summed over its labels; empty when it
     * does not answer (a service without them counts 0).
     */
    private Map<String, Double> importCounters() {
        Map<String, Double> counters = new java.util.LinkedHashMap<>();
        IMPORT_COUNTERS.forEach(name -> counters.put(name, 0.0));
        Optional<String> metrics = new OrderServiceClient(orderService).tryMetrics(Duration.ofSeconds(10));
        if (metrics.isEmpty()) {
            console.say(Scenario.BACKFILL_KAFKA_FREEZE, "the order service's metrics did not answer");
        }
        metrics.ifPresent(text -> text.lines().filter(line -> !line.startsWith("#")).forEach(line -> {
            for (String name : IMPORT_COUNTERS) {
                if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                    counters.merge(name, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum);
                }
            }
        }));
        return counters;
    }

    /** What the import's counters gained since {@code before}, in words. */
    private String countersSince(Map<String, Double> before) {
        Map<String, Double> now = importCounters();
        long retried = Math.round(now.get(IMPORT_COUNTERS.get(0)) - before.getOrDefault(IMPORT_COUNTERS.get(0), 0.0));
        long unknown = Math.round(now.get(IMPORT_COUNTERS.get(1)) - before.getOrDefault(IMPORT_COUNTERS.get(1), 0.0));
        long learnt = Math.round(now.get(IMPORT_COUNTERS.get(2)) - before.getOrDefault(IMPORT_COUNTERS.get(2), 0.0));
        return ("%d commits Kafka did not answer in time (asked again), %d batches answered 'outcome unknown', %d earlier "
                + "outcomes learnt from the log").formatted(retried, unknown, learnt);
    }

    private static String lastLine(String text) {
        List<String> lines = text.lines().filter(line -> !line.isBlank() && !line.startsWith("backfill ")).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
    }

    private void say(Scenario scenario, String line) {
        console.say(scenario, line);
    }
}
