package dev.lunchrush.chaos;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
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
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.localstack.StackControl;

/**
 * {@code backfill-kafka-kill}: a {@code ./demo backfill} of {@value #ORDERS} orders of yesterday (UTC, the suite's
 * seed) runs in the background; once a quarter of it is in the log, the Kafka broker is killed ({@code kill -9}),
 * left dead 10 s (20 s in a cluster) and restarted, while the backfill sends its refused batches again under their
 * keys; once it has finished, the day is replayed through the report replayer as {@code ./demo replay} does, and
 * must hold exactly the backfilled orders more than its replay before the backfill did. The backfill runs with
 * {@code --again}: its keys are its own (the suite run twice on one stack writes the day's orders twice, as asked),
 * and stay the same through its retries, which is what is tested.
 */
final class BackfillFault {

    static final int ORDERS = 20_000;
    private static final Duration BACKFILL_LIMIT = Duration.ofMinutes(5);
    private static final Duration REPLAY_LIMIT = Duration.ofMinutes(5);
    private static final Duration SERVICE_RESTART = Duration.ofSeconds(180);

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

    Result run(Scenario scenario) {
        List<String> notes = new java.util.ArrayList<>();
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(1);
        long dayBefore = replay(scenario, day, "before the backfill");
        Map<TopicPartition, Long> mark = log.endOffsets(Topology.ORDERS_TOPIC);

        StringWriter backfillOut = new StringWriter();
        StringWriter backfillErr = new StringWriter();
        CompletableFuture<Integer> backfill = start(backfillOut, backfillErr);
        say(scenario, "backfill of %,d orders of %s (seed %d, --again) under way".formatted(ORDERS, day, seed));
        String broker = stack.cluster() ? stack.kafkaBrokers().get(1) : stack.kafkaBrokers().get(0);
        long writtenAtKill = awaitQuarter(backfill, mark);
        if (writtenAtKill >= 0) {
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
        }
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

        if (!LocalDate.now(ZoneOffset.UTC).minusDays(1).equals(day)) {
            throw new DemoException("midnight (UTC) passed during the scenario, so the backfill's yesterday may not be "
                    + day + ": run it again");
        }
        TheLog.Contents contents = log.read(mark, log.endOffsets(Topology.ORDERS_TOPIC));
        long dayAfter = replay(scenario, day, "after the backfill");
        BackfillOutcome outcome = new BackfillOutcome(day, ORDERS, exit, error, writtenAtKill, dayBefore, dayAfter,
                contents.orderIds().size(), new HashSet<>(contents.orderIds()).size(), retries.size());
        notes.add(outcome.summary());
        List<String> failures = outcome.failures();
        long duplicated = Math.max(0, outcome.added() - ORDERS) + (outcome.inLog() - outcome.distinctInLog());
        return new Result(scenario.id, scenario.act.id(), exit == 0 ? ORDERS : 0, outcome.inLog(), -1, -1,
                Math.max(0, ORDERS - outcome.added()), duplicated, retries.stream().filter(line -> line.contains(" 503")).count(),
                retries.stream().filter(line -> !line.contains(" answered ")).count(), 0, 0, notes, failures);
    }

    /**
     * The backfill, in a thread of its own, as {@code ./demo backfill} runs it: its summary in {@code output}; its
     * progress, and the message that ended it, in {@code errors}; its exit code as the command's would be.
     */
    private CompletableFuture<Integer> start(StringWriter output, StringWriter errors) {
        Backfill.Settings settings = new Backfill.Settings(1, ORDERS, ZoneOffset.UTC, Backfill.MAX_BATCH, seed, true,
                Duration.ofMinutes(2));
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
     * Waits until a quarter of the backfill's records are in the log (at most its bound); how many then, or
     * {@code -1} when the backfill ended first.
     */
    private long awaitQuarter(CompletableFuture<Integer> backfill, Map<TopicPartition, Long> mark) {
        Instant deadline = Instant.now().plus(BACKFILL_LIMIT);
        try (TheLog.Watch watch = log.watch(Topology.ORDERS_TOPIC)) {
            while (!backfill.isDone() && Instant.now().isBefore(deadline)) {
                long appended = watch.appendedSince(mark);
                if (appended >= ORDERS / 4) {
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

    private static String lastLine(String text) {
        List<String> lines = text.lines().filter(line -> !line.isBlank() && !line.startsWith("backfill ")).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
    }

    private void say(Scenario scenario, String line) {
        console.say(scenario, line);
    }
}
