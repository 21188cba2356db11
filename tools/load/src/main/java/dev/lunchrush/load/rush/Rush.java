package dev.lunchrush.load.rush;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.lesson.LessonArithmetic;
import dev.lunchrush.lesson.RateProfile;
import dev.lunchrush.lesson.Snapshot;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;
import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.ExitCodes;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.processes.RepoRoot;

/**
 * The lunch rush against the running stack: realistic random orders through {@code POST /orders}, open-loop at
 * the profile's rates, a live table once a second until the dashboard has caught up (or the order service died),
 * then the report and the lesson's measured-vs-predicted table. {@code ./demo rush} runs it.
 */
public final class Rush {

    /**
     * What to run.
     *
     * @param profile the rates and durations, at their speed
     * @param count stop after this many orders even if the profile goes on; 0 for no limit
     * @param dashboardCapacity the analytics job's capacity for the rush, restored after; null: the lunch
     *     profile's 250/s × speed, and the dashboard's own for the others
     * @param budgetMb the in-memory feed's budget for the prediction; null: measured
     * @param maxInFlight requests in flight at most
     * @param requestTimeout per request
     * @param json where to write the result as JSON; null for nowhere
     * @param seed the orders' random seed; null for a random one
     */
    public record Settings(RateProfile profile, long count, @Nullable Double dashboardCapacity,
            @Nullable Double budgetMb, int maxInFlight, Duration requestTimeout, @Nullable Path json,
            @Nullable Long seed) {
    }

    private final Settings settings;
    private final Endpoints endpoints;
    private final PrintWriter out;
    private final Supplier<String> password;
    private final RushListener listener;
    /** The command line's table is redrawn in place on a terminal; a listener's rush prints line by line. */
    private final boolean mayRedraw;
    private volatile boolean stopAsked;

    /** The command line's rush: the admin password looked up as every command does, nobody listening. */
    public Rush(Settings settings, Endpoints endpoints, PrintWriter out) {
        this(settings, endpoints, out, () -> AdminPassword.require(RepoRoot.find()), RushListener.NONE, true);
    }

    /**
     * @param password the stack's admin password, for the dashboard's capacity
     * @param listener told of the rush's start, of each second and of its end
     */
    public Rush(Settings settings, Endpoints endpoints, PrintWriter out, Supplier<String> password, RushListener listener) {
        this(settings, endpoints, out, password, listener, false);
    }

    private Rush(Settings settings, Endpoints endpoints, PrintWriter out, Supplier<String> password, RushListener listener,
            boolean mayRedraw) {
        this.mayRedraw = mayRedraw;
        this.settings = settings;
        this.endpoints = endpoints;
        this.out = out;
        this.password = password;
        this.listener = listener;
    }

    /**
     * Runs the rush, holding the stack's {@link RushMarker} while it runs; its exit code. {@link RushMarker.Held} when
     * another rush holds it.
     */
    public int run() {
        return run(RushMarker.claim(RepoRoot.find(), "./demo rush"));
    }

    /** Runs the rush on the stack that {@code claimed} holds, and lets it go at the end. */
    public int run(RushMarker claimed) {
        try (claimed) {
            return runWithCapacity();
        }
    }

    /**
     * Stops the rush from another thread: no more orders are sent, and it reports what it measured so far (within a
     * second).
     */
    public void stop() {
        stopAsked = true;
    }

    /** Runs the rush, with the dashboard's capacity set for it and put back after (also on Ctrl+C); its exit code. */
    private int runWithCapacity() {
        RateProfile profile = settings.profile();
        Supplier<byte[]> bodies = orderBodies();
        ServiceClient dashboard = new ServiceClient("analytics-dashboard", endpoints.analyticsDashboard(), password);
        Double capacity = settings.dashboardCapacity() != null ? settings.dashboardCapacity()
                : profile.name().equals("lunch") ? LessonArithmetic.LESSON_OUT_RATE * profile.speed() : null;
        CapacityOverride override = capacity == null ? null : CapacityOverride.apply(dashboard, capacity, out);
        Thread restore = new Thread(() -> {
            if (override != null) {
                override.restore(null);
            }
        }, "restore-capacity");
        Runtime.getRuntime().addShutdownHook(restore);
        try {
            return drive(bodies, capacity);
        }
        finally {
            if (override != null) {
                override.restore(out);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(restore);
            }
            catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    /** Random orders from the order service's menu, as request bodies, from any thread. */
    private Supplier<byte[]> orderBodies() {
        ServiceClient orderService = new ServiceClient("order-service", endpoints.orderService(), password);
        Menu menu = ServiceClient.JSON.treeToValue(orderService.get("/menu"), Menu.class);
        if (menu.kitchens().isEmpty()) {
            throw new DemoException("order-service's menu has no kitchens: nothing to order");
        }
        SampleOrders orders = new SampleOrders(menu, settings.seed() == null ? new Random() : new Random(settings.seed()));
        return () -> {
            OrderRequest request;
            synchronized (orders) {
                request = orders.next();
            }
            return ServiceClient.JSON.writeValueAsBytes(request);
        };
    }

    /**
     * Sends the orders and samples the stack once a second, until the sender is done and the dashboard has caught
     * up, the drain time is over or the order service died; then reports, before the client closes (requests
     * still out when it closes would count as failed).
     */
    private int drive(Supplier<byte[]> bodies, @Nullable Double capacity) {
        RateProfile profile = settings.profile();
        out.println(profile.describe());
        DriverHttp http = new DriverHttp(settings.requestTimeout());
        OpenLoopDriver driver = new OpenLoopDriver(http, Endpoints.resolve(endpoints.orderService(), "/orders"), bodies,
                profile, settings.count(), settings.maxInFlight(), Duration.ofSeconds(30));
        try (StackSampler sampler = new StackSampler(endpoints, password)) {
            Snapshot base = sampler.base(driver.counters());
            double outRate = capacity != null ? capacity
                    : base.dashboardCapacity() > 0 ? base.dashboardCapacity() : LessonArithmetic.LESSON_OUT_RATE * profile.speed();
            LessonArithmetic predicted = new LessonArithmetic(profile.segments().get(0).ratePerSecond(), outRate,
                    profile.segments().size() > 1 ? profile.segments().get(1).ratePerSecond() : 0,
                    profile.segments().get(0).duration(), LessonArithmetic.LESSON_EVENT_BYTES,
                    budgetBytes(settings.budgetMb(), base),
                    Math.max(0, base.dashboardBacklog()));
            if (base.dashboardBacklog() > 0) {
                out.println(("analytics-dashboard: %,d events unread before the first order (an earlier rush's backlog); "
                        + "the predictions below start from them").formatted(base.dashboardBacklog()));
            }
            listener.started(profile.describe(), predicted);
            boolean terminal = mayRedraw && System.console() != null && System.getenv("TERM") != null && !"dumb".equals(System.getenv("TERM"));
            LiveTable table = new LiveTable(out, terminal, 5);
            table.header();

            Thread sender = new Thread(driver::run, "rush-driver");
            sender.start();
            long start = System.nanoTime();
            DeathWatch deathWatch = new DeathWatch(RepoRoot.find(), start);
            // up before the first order: a service that dies within the first second is seen dying
            deathWatch.observe(base);
            Snapshot last = base;
            long nextSample = start + TimeUnit.SECONDS.toNanos(1);
            Duration drain = drainTimeout(profile);
            long drainUntil = Long.MAX_VALUE;
            while (true) {
                sleepUntil(nextSample);
                nextSample += TimeUnit.SECONDS.toNanos(1);
                last = sampler.sample(System.nanoTime() - start, driver.counters());
                Histogram latencies = driver.latencySinceLastCall();
                List<String> notes = notes(driver, deathWatch, last, profile);
                listener.row(LiveRow.of(base, last, profile, LiveRow.p99(latencies), notes));
                table.update(base, last, profile, notes, latencies);
                if (deathWatch.observe(last) && !driver.stopped()) {
                    driver.stop();
                }
                if (stopAsked) {
                    driver.stop();
                    break;
                }
                if (!sender.isAlive()) {
                    if (drainUntil == Long.MAX_VALUE) {
                        drainUntil = System.nanoTime() + drain.toNanos();
                    }
                    boolean caughtUp = last.dashboardBacklog() >= 0 && last.dashboardBacklog() <= Math.max(1,
                            profile.segments().get(profile.segments().size() - 1).ratePerSecond());
                    if (caughtUp || System.nanoTime() > drainUntil || deathWatch.dead()) {
                        break;
                    }
                }
            }
            if (deathWatch.dead()) {
                // the dashboard finishes what it had pulled; then its count is final
                sleepUntil(System.nanoTime() + TimeUnit.SECONDS.toNanos(2));
                last = sampler.sample(System.nanoTime() - start, driver.counters());
            }
            join(sender);
            table.finish(base, last, profile, List.of(), driver.latencySinceLastCall());
            report(RushResult.of(profile, predicted, sampler.snapshots(), driver, deathWatch.diedAtSeconds()));
            return ExitCodes.DONE;
        }
        finally {
            driver.stop();
            http.close();
        }
    }

    /** The report on the console, and the JSON where asked. */
    private void report(RushResult result) {
        RushReport.print(result, out);
        if (settings.json() != null) {
            RushJson.write(result, settings.json());
            out.println("JSON written to " + settings.json());
        }
        if (listener != RushListener.NONE) {
            listener.finished(RushReport.outcome(result));
        }
    }

    /**
     * The feed's room from the rush's start, for the prediction: what the order service has room for
     * ({@link LessonArithmetic#feedRoomBytes}, the feed's events already in it counted as alive: the death comes when
     * that is full, whatever the lesson's round 100 MB says); else the budget asked ({@code budgetMb}) or the
     * lesson's, less what the feed holds already.
     */
    static double budgetBytes(@Nullable Double budgetMb, Snapshot base) {
        double measured = base.orderService() == null ? -1 : base.orderService().feedBudget();
        if (budgetMb == null && measured > 0) {
            return measured;
        }
        double budget = budgetMb != null ? budgetMb * 1_000_000 : LessonArithmetic.LESSON_BUDGET_BYTES;
        long held = base.orderService() == null ? 0 : Math.max(0, base.orderService().feedBufferedBytes());
        return Math.max(0, budget - held);
    }

    /** How long the dashboard may take to catch up once the last order is sent. */
    private static Duration drainTimeout(RateProfile profile) {
        if (profile.segments().size() < 2) {
            return Duration.ofSeconds(3);
        }
        long seconds = Math.max(5, Math.round(profile.totalDuration().toSeconds() * 0.25));
        return Duration.ofSeconds(seconds);
    }

    /** The lines under the live table: a generator falling behind, an order service dead or silent. */
    private static List<String> notes(OpenLoopDriver driver, DeathWatch deathWatch, Snapshot last, RateProfile profile) {
        List<String> notes = new ArrayList<>();
        long lagMillis = TimeUnit.NANOSECONDS.toMillis(driver.counters().currentLagNanos);
        if (lagMillis > 500) {
            notes.add("generator: %,d ms behind schedule, %,d requests in flight — it is not holding the asked rate"
                    .formatted(lagMillis, driver.outstanding()));
        }
        if (deathWatch.dead()) {
            notes.add("order-service: DIED at " + deathWatch.diedAt(profile) + " — no more orders are sent");
        }
        else if (!last.orderServiceUp()) {
            notes.add("order-service: not answering");
        }
        return notes;
    }

    /** Sleeps until {@code System.nanoTime()} reaches {@code nanos}; an interrupt ends the rush. */
    static void sleepUntil(long nanos) {
        long remaining;
        while ((remaining = nanos - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(remaining);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new DemoException("interrupted");
            }
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
