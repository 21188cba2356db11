package dev.lunchrush.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lunchrush.events.Act;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.localstack.StackControl;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * Runs one scenario: puts the stack in the scenario's act, waits until the readers are idle, takes the marks,
 * streams orders, does the fault ({@link Faults}), streams on until intake has resumed, stops, and hands the
 * stream to the scenario's oracle. The backfill scenario runs a backfill instead of the stream
 * ({@link BackfillFault}), the hostile clients' scenario its clients and probes ({@link HostileClients}). A scenario that cannot be carried out is a failed one, not the suite's end.
 */
final class ScenarioRunner {

    private final OrderServiceClient orderService;
    private final Readers readers;
    private final TheLog log;
    private final Menu menu;
    private final FaultSuite.Settings settings;
    private final ScenarioConsole console;
    private final Await await;
    private final Faults faults;
    private final BackfillFault backfill;
    private final HostileClients hostile;
    private final LogOracle logOracle;
    private final SharedQueueOracle sharedQueueOracle;
    private final MemoryFeedOracle memoryFeedOracle;

    ScenarioRunner(StackControl stack, Endpoints endpoints, OrderServiceClient orderService, ServiceClient replayer,
            Readers readers, Menu menu, FaultSuite.Settings settings, Faults faults, ScenarioConsole console) {
        this.orderService = orderService;
        this.readers = readers;
        this.log = new TheLog(stack.bootstrapServers());
        this.menu = menu;
        this.settings = settings;
        this.console = console;
        this.await = new Await(readers, console);
        this.faults = faults;
        this.backfill = new BackfillFault(stack, orderService.http(), replayer, log, settings.seed(), console);
        this.hostile = new HostileClients(stack, endpoints, menu, settings.seed(), console);
        this.logOracle = new LogOracle(log, readers, await, console);
        this.sharedQueueOracle = new SharedQueueOracle(readers, await, console);
        this.memoryFeedOracle = new MemoryFeedOracle(readers, await, console);
    }

    Result run(Scenario scenario) {
        console.say(scenario, scenario.description);
        List<String> notes = new ArrayList<>();
        try {
            switchAct(scenario.act);
            if (scenario.oracle == Scenario.Oracle.SERVICES) {
                // judged by probes, not by what the readers count: their backlog does not matter
                Result result = hostile.run(scenario);
                console.say(scenario, result.verdict() + (result.passed() ? "" : ": " + String.join("; ", result.failures())));
                return result;
            }
            await.readersQuiet(scenario, counts -> true);
            if (scenario.oracle == Scenario.Oracle.REPLAY) {
                Result result = backfill.run(scenario);
                console.say(scenario, result.verdict() + ": " + result.notes().get(result.notes().size() - 1)
                        + (result.passed() ? "" : "; " + String.join("; ", result.failures())));
                return result;
            }
            Marks marks = Marks.take(scenario, log, readers);
            List<String> failures = new ArrayList<>();
            OrderStream stream = streamThroughFault(scenario, notes, failures);
            if (stream.others() > 0) {
                failures.add("answers other than 201 and 503: " + stream.otherAnswers);
            }
            Result result = oracle(scenario).judge(scenario, marks, stream, notes, failures);
            console.say(scenario, result.verdict() + (result.passed() ? "" : ": " + String.join("; ", result.failures())));
            return result;
        }
        catch (DemoException ex) {
            console.say(scenario, "FAIL: " + ex.getMessage());
            return Result.broken(scenario.id, scenario.act.id(), ex.getMessage(), notes);
        }
    }

    /**
     * Orders at the suite's rate: for {@code before}, through the fault, then until {@code after}'s worth of them
     * (80%) more are acknowledged; the stream, closed. The fault's notes and failures are added to those given.
     */
    private OrderStream streamThroughFault(Scenario scenario, List<String> notes, List<String> failures) {
        OrderStream stream = OrderStream.start(orderService.base(), menu, settings.perSecond(),
                settings.seed() + scenario.ordinal());
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "chaos-progress");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(() -> console.say(scenario, "… " + stream.summary()), 5, 5, TimeUnit.SECONDS);
        try {
            console.say(scenario, "orders at " + (long) settings.perSecond() + "/s for " + settings.before().toSeconds()
                    + " s before the fault");
            Pause.sleep(settings.before());
            Faults.Outcome fault = faults.inject(scenario, stream);
            notes.addAll(fault.notes());
            failures.addAll(fault.failures());
            long resumedFrom = stream.acknowledged.size();
            long wanted = Math.round(settings.perSecond() * settings.after().toSeconds() * 0.8);
            console.say(scenario, "orders on until " + wanted + " more are acknowledged");
            boolean resumed = Await.until(Duration.ofSeconds(settings.after().toSeconds() + 120),
                    () -> stream.acknowledged.size() >= resumedFrom + wanted);
            if (!resumed) {
                failures.add("intake did not resume: " + (stream.acknowledged.size() - resumedFrom)
                        + " acknowledged after the fault, " + wanted + " wanted");
            }
        }
        finally {
            ticker.shutdownNow();
            stream.close();
        }
        console.say(scenario, "stream over: " + stream.summary() + "; slowest answer " + stream.slowestMillis.get() + " ms");
        return stream;
    }

    private StreamOracle oracle(Scenario scenario) {
        return switch (scenario.oracle) {
            case LOG -> logOracle;
            case SHARED_QUEUE -> sharedQueueOracle;
            case MEMORY_FEED -> memoryFeedOracle;
            case REPLAY -> throw new IllegalStateException("a backfill scenario has no order stream");
            case SERVICES -> throw new IllegalStateException("the hostile clients' scenario has no order stream");
        };
    }

    private void switchAct(Act act) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("act", act.id());
        if (act.hasFeed()) {
            // block loses nothing by design: what is acknowledged must reach the job
            body.put("strategy", "block");
            body.put("capacity", 10_000);
        }
        orderService.switchAct(body);
    }
}
