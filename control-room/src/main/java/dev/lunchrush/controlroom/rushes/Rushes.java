package dev.lunchrush.controlroom.rushes;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import dev.lunchrush.controlroom.ControlRoomProperties;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.load.rush.Rush;
import dev.lunchrush.load.rush.RushMarker;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.processes.RepoRoot;
import dev.lunchrush.support.SecurityProperties;
import dev.lunchrush.support.problems.ProblemType;

/**
 * The control room's rushes, one at a time: a rush runs on a thread of its own with {@code ./demo rush}'s code
 * ({@link Rush}), holding the stack's {@link RushMarker} as the command line's does, so that neither starts while the
 * other runs. The last few finished ones are kept for {@code GET /api/rushes/{id}}.
 */
@Component
public class Rushes implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(Rushes.class);

    /** How long a finished rush waits for its readers' last orders. */
    private static final Duration SETTLE = Duration.ofSeconds(15);

    private final Endpoints endpoints;
    private final ServiceClient kitchenScreen;
    private final ServiceClient dashboard;
    private final SecurityProperties security;
    private final Clock clock;
    private final int kept;
    private final Map<String, RushRun> runs = new LinkedHashMap<>();
    private @Nullable RushRun latest;
    private long lastId;

    Rushes(Endpoints endpoints, SecurityProperties security, ControlRoomProperties properties, Clock clock) {
        this.endpoints = endpoints;
        this.security = security;
        this.kitchenScreen = new ServiceClient("kitchen-screen", endpoints.kitchenScreen(), security::adminPassword);
        this.dashboard = new ServiceClient("analytics-dashboard", endpoints.analyticsDashboard(), security::adminPassword);
        this.clock = clock;
        this.kept = properties.rushesKept();
    }

    /**
     * Starts a rush with these settings, checked ({@code body} as given, for its view): 409 while a rush runs, this
     * room's or another's on the same stack.
     */
    synchronized RushRun start(Rush.Settings settings, JsonNode body) {
        if (latest != null && latest.running()) {
            throw new ProblemException(ProblemType.CONFLICT, "A rush is running",
                    "rush " + latest.id() + " is running: wait for it to end, or stop it (DELETE /api/rushes/" + latest.id() + ")",
                    List.of());
        }
        String id = nextId();
        RushMarker claimed;
        try {
            claimed = RushMarker.claim(RepoRoot.find(), "the control room's rush " + id);
        }
        catch (RushMarker.Held ex) {
            throw new ProblemException(ProblemType.CONFLICT, "A rush is running", ex.getMessage(), List.of());
        }
        RushRun run = new RushRun(id, body, clock.instant());
        Rush rush = new Rush(settings, endpoints, run.out(), security::adminPassword, run);
        run.attach(rush);
        Thread thread = new Thread(() -> {
            RuntimeException failure = null;
            try {
                rush.run(claimed);
                run.settle(kitchenScreen, dashboard, SETTLE);
            }
            catch (RuntimeException ex) {
                log.warn("rush {} failed: {}", id, ex.toString());
                failure = ex;
            }
            run.ended(failure, clock.instant());
        }, "rush-" + id);
        runs.put(id, run);
        latest = run;
        while (runs.size() > kept) {
            runs.remove(runs.keySet().iterator().next());
        }
        thread.start();
        log.info("rush {} started: {}", id, body);
        return run;
    }

    /** Ids that sort by time and do not repeat after a restart of the control room. */
    private String nextId() {
        lastId = Math.max(lastId + 1, clock.millis());
        return Long.toString(lastId, 36);
    }

    synchronized Optional<RushRun> find(String id) {
        return Optional.ofNullable(runs.get(id));
    }

    synchronized List<RushSummary> summaries() {
        List<RushSummary> newestFirst = new ArrayList<>(runs.values().stream().map(RushRun::summary).toList());
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** The rush under way, or the last one. */
    public synchronized Optional<RushSummary> summary() {
        return Optional.ofNullable(latest).map(RushRun::summary);
    }

    /** On shutdown a rush under way is stopped, so that it puts the dashboard's capacity back and lets the stack go. */
    @Override
    public void destroy() throws InterruptedException {
        RushRun running;
        synchronized (this) {
            running = latest != null && latest.running() ? latest : null;
        }
        if (running != null) {
            running.stop();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (running.running() && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
    }
}
