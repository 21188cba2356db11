package dev.lunchrush.reportreplayer.replay;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Service;

import dev.lunchrush.reportreplayer.ReplayerProperties;
import dev.lunchrush.reportreplayer.report.Dates;
import dev.lunchrush.reportreplayer.report.DayReport;
import dev.lunchrush.reportreplayer.report.ReportStore;
import dev.lunchrush.reportreplayer.web.Problems;

/**
 * Starts replays (one at a time per day and zone, any number of different days side by side), keeps
 * their status, and exports their progress:
 * {@code replay_events_read}, {@code replay_events_expected}, {@code replay_rate_events_per_second}
 * and {@code replay_running} (gauges: the running replays added up; once none runs, read and
 * expected stay at the last finished replay's figures and the rate drops to 0), and
 * {@code replay_completed_total{state="DONE|FAILED"}}.
 */
@Service
class ReplayService implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ReplayService.class);

    private final ReplayPlanner planner;
    private final ReplayRunner runner;
    private final ReportStore store;
    private final Clock clock;
    private final ZoneId defaultZone;
    private final int kept;
    private final Map<String, Replay> running = new ConcurrentHashMap<>();
    private final Map<String, Replay> replays = Collections.synchronizedMap(new LinkedHashMap<>());
    private volatile @Nullable Replay lastFinished;
    private final Counter done;
    private final Counter failed;
    private final ExecutorService executor = Executors.newCachedThreadPool(new java.util.concurrent.ThreadFactory() {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable runnable) {
            Thread thread = new Thread(runnable, "replay-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    });

    ReplayService(ReplayPlanner planner, ReplayRunner runner, ReportStore store, Clock clock,
            ReplayerProperties properties, MeterRegistry registry) {
        this.planner = planner;
        this.runner = runner;
        this.store = store;
        this.clock = clock;
        this.defaultZone = properties.zone();
        this.kept = properties.replay().keptStatuses();
        Gauge.builder("replay.events.read", this, service -> service.figure(Replay::read))
                .description("Records read by the running replays (the last replay's total once none runs)")
                .register(registry);
        Gauge.builder("replay.events.expected", this, service -> service.figure(Replay::expected))
                .description("Records the running replays will read (the last replay's once none runs)")
                .register(registry);
        Gauge.builder("replay.rate.events.per.second", this,
                        service -> service.running.values().stream().mapToDouble(Replay::ratePerSecond).sum())
                .description("Records read per second by the running replays, averaged since each started")
                .register(registry);
        Gauge.builder("replay.running", running, Map::size)
                .description("Replays running now")
                .register(registry);
        this.done = Counter.builder("replay.completed").tag("state", "DONE")
                .description("Replays finished, by outcome").register(registry);
        this.failed = Counter.builder("replay.completed").tag("state", "FAILED")
                .description("Replays finished, by outcome").register(registry);
    }

    ReplayStatus start(ReplayRequest request) {
        LocalDate date = Dates.date(request.date());
        ZoneId zone = request.zone() == null || request.zone().isBlank() ? defaultZone : Dates.zone(request.zone());
        // one lock for check-then-start: two identical requests at once must not both start
        synchronized (running) {
            Replay busy = running.get(Replay.key(date, zone));
            if (busy != null) {
                var conflict = Problems.conflict("Replay already running",
                        "a replay of " + date + " in " + zone.getId() + " is running (" + busy.id() + ", "
                                + busy.read() + " of " + busy.expected() + " read): wait for it or follow /api/replays/" + busy.id());
                conflict.getBody().setProperty("replayId", busy.id());
                throw conflict;
            }
            ReplayPlan plan = planner.plan(date, zone);
            Replay replay = new Replay(UUID.randomUUID().toString().substring(0, 8), date, zone, plan.expected(), clock.instant());
            running.put(replay.key(), replay);
            remember(replay);
            log.info("replay {} of {} in {} started: {} records to read", replay.id(), date, zone, plan.expected());
            executor.execute(() -> execute(replay, plan));
            return replay.status();
        }
    }

    private void execute(Replay replay, ReplayPlan plan) {
        try {
            DayReport report = runner.run(replay, plan);
            store.save(report);
            replay.done(clock.instant());
            done.increment();
        }
        catch (RuntimeException | Error ex) {
            // an Error too (out of memory, say): a replay left RUNNING would refuse every later replay of its day
            log.warn("replay {} of {} in {} failed", replay.id(), replay.date(), replay.zone(), ex);
            replay.failed(clock.instant(), ex.getMessage() == null ? ex.toString() : ex.getMessage());
            failed.increment();
        }
        finally {
            lastFinished = replay;
            running.remove(replay.key());
        }
    }

    Optional<ReplayStatus> find(String id) {
        return Optional.ofNullable(replays.get(id)).map(Replay::status);
    }

    /** Newest first. */
    List<ReplayStatus> all() {
        List<ReplayStatus> all = new ArrayList<>();
        synchronized (replays) {
            replays.values().forEach(replay -> all.add(replay.status()));
        }
        Collections.reverse(all);
        return all;
    }

    private void remember(Replay replay) {
        synchronized (replays) {
            replays.put(replay.id(), replay);
            var oldest = replays.entrySet().iterator();
            while (replays.size() > kept && oldest.hasNext()) {
                if (oldest.next().getValue().state() != Replay.State.RUNNING) {
                    oldest.remove();
                }
            }
        }
    }

    private double figure(java.util.function.ToLongFunction<Replay> figure) {
        if (running.isEmpty()) {
            Replay last = lastFinished;
            return last == null ? 0 : figure.applyAsLong(last);
        }
        return running.values().stream().mapToLong(figure).sum();
    }

    @Override
    public void destroy() {
        executor.shutdownNow();
    }
}
