package dev.lunchrush.loadgenerator.rush;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.SampleOrders;
import dev.lunchrush.loadgenerator.AdminPassword;
import dev.lunchrush.loadgenerator.Demo;
import dev.lunchrush.loadgenerator.DemoException;
import dev.lunchrush.loadgenerator.DurationConverter;
import dev.lunchrush.loadgenerator.Endpoints;
import dev.lunchrush.loadgenerator.RepoRoot;
import dev.lunchrush.loadgenerator.ServiceClient;

/** {@code ./demo rush}: the lunch rush against the running stack. */
@Command(name = "rush", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Place realistic random orders through POST /orders, open-loop at the asked rate, with a live "
                + "table while it runs and the lesson's measured-vs-predicted table at the end.",
            "Profiles: lunch (the lesson: 400/s × N from 12:20 to 12:35, then 100/s × N; the dashboard's capacity is "
                + "set to 250/s × N for the rush and restored after), constant (--rate --duration), "
                + "step (--rate, then --then-rate), custom (--rate --duration --then-rate --then-duration).",
            "Examples: ./demo rush --profile lunch --speed 10 | ./demo rush --rate 200 --duration 30s"})
public class RushCommand implements Callable<Integer> {

    @ParentCommand
    private Demo demo;

    @Spec
    private CommandSpec spec;

    @Option(names = "--profile", paramLabel = "P",
            description = "lunch, constant, step or custom (default: lunch, or constant/custom when --rate is given)")
    private @Nullable String profileName;

    @Option(names = "--speed", paramLabel = "N", defaultValue = "1",
            description = "time compression: rates × N, durations ÷ N (default: ${DEFAULT-VALUE})")
    private double speed;

    @Option(names = "--rate", paramLabel = "R", description = "orders per second")
    private @Nullable Double rate;

    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class, description = "like 30s, 2m, 1m30s")
    private @Nullable Duration duration;

    @Option(names = "--then-rate", paramLabel = "R", description = "orders per second after --duration")
    private @Nullable Double thenRate;

    @Option(names = "--then-duration", paramLabel = "D", converter = DurationConverter.class,
            description = "how long --then-rate lasts")
    private @Nullable Duration thenDuration;

    @Option(names = "--count", paramLabel = "N", description = "stop after N orders even if the profile goes on")
    private long count;

    @Option(names = "--dashboard-capacity", paramLabel = "EVENTS_PER_S",
            description = "set the analytics job's capacity for the rush, restored after (lunch: 250 × N)")
    private @Nullable Double dashboardCapacity;

    @Option(names = "--budget-mb", paramLabel = "MB",
            description = "the in-memory feed's budget for the prediction (default: measured, the order service's old "
                    + "generation less what it keeps alive at the start; the lesson's 100 MB where it does not say)")
    private @Nullable Double budgetMb;

    @Option(names = "--max-in-flight", paramLabel = "N", defaultValue = "2000",
            description = "requests in flight at most; beyond it the generator is not holding the rate and says so")
    private int maxInFlight;

    @Option(names = "--request-timeout", paramLabel = "D", converter = DurationConverter.class, defaultValue = "10s",
            description = "per request (default: ${DEFAULT-VALUE})")
    private Duration requestTimeout = Duration.ofSeconds(10);

    @Option(names = "--json", paramLabel = "FILE", description = "write the final table and counts as JSON")
    private @Nullable Path json;

    @Option(names = "--seed", paramLabel = "N", description = "random seed for the orders (default: random)")
    private @Nullable Long seed;

    @Override
    public Integer call() {
        RateProfile profile = profile();
        PrintWriter out = spec.commandLine().getOut();
        Endpoints endpoints = demo.endpoints();
        Supplier<String> password = () -> AdminPassword.require(RepoRoot.find());
        ServiceClient orderService = new ServiceClient("order-service", endpoints.orderService(), password);
        ServiceClient dashboard = new ServiceClient("analytics-dashboard", endpoints.analyticsDashboard(), password);

        Menu menu = ServiceClient.JSON.treeToValue(orderService.get("/menu"), Menu.class);
        if (menu.kitchens().isEmpty()) {
            throw new DemoException("order-service's menu has no kitchens: nothing to order");
        }
        SampleOrders orders = new SampleOrders(menu, seed == null ? new Random() : new Random(seed));
        Supplier<byte[]> bodies = () -> {
            OrderRequest request;
            synchronized (orders) {
                request = orders.next();
            }
            return ServiceClient.JSON.writeValueAsBytes(request);
        };

        Double capacity = dashboardCapacity != null ? dashboardCapacity
                : profile.name().equals("lunch") ? LessonArithmetic.LESSON_OUT_RATE * speed : null;
        CapacityOverride override = capacity == null ? null : CapacityOverride.apply(dashboard, capacity, out);
        Thread restore = new Thread(() -> {
            if (override != null) {
                override.restore(null);
            }
        }, "restore-capacity");
        Runtime.getRuntime().addShutdownHook(restore);
        try {
            return rush(profile, endpoints, password, bodies, capacity, out);
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

    private int rush(RateProfile profile, Endpoints endpoints, Supplier<String> password, Supplier<byte[]> bodies,
            @Nullable Double capacity, PrintWriter out) {
        out.println(describe(profile));
        DriverHttp http = new DriverHttp(requestTimeout);
        OpenLoopDriver driver = new OpenLoopDriver(http, Endpoints.resolve(endpoints.orderService(), "/orders"), bodies,
                profile, count, maxInFlight, Duration.ofSeconds(30));
        try (StackSampler sampler = new StackSampler(endpoints, password)) {
            Snapshot base = sampler.sample(0, driver.counters());
            double outRate = capacity != null ? capacity
                    : base.dashboardCapacity() > 0 ? base.dashboardCapacity() : LessonArithmetic.LESSON_OUT_RATE * speed;
            LessonArithmetic predicted = new LessonArithmetic(profile.segments().get(0).ratePerSecond(), outRate,
                    profile.segments().size() > 1 ? profile.segments().get(1).ratePerSecond() : 0,
                    profile.segments().get(0).duration(), LessonArithmetic.LESSON_EVENT_BYTES, budgetBytes(base));
            boolean terminal = System.console() != null && System.getenv("TERM") != null && !"dumb".equals(System.getenv("TERM"));
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
                List<String> notes = notes(driver, deathWatch, last, profile);
                table.update(base, last, profile, notes);
                if (deathWatch.observe(last) && !driver.stopped()) {
                    driver.stop();
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
            table.finish(base, last, profile, List.of());
            join(sender);
            return report(profile, predicted, sampler.snapshots(), driver, deathWatch.diedAtSeconds(), out);
        }
        finally {
            driver.stop();
            http.close();
        }
    }

    /**
     * The feed's budget for the prediction: as asked, else what the order service has room for (its old
     * generation less what it keeps alive now: the death comes when that is full, whatever the lesson's round
     * 100 MB says), else the lesson's.
     */
    private double budgetBytes(Snapshot base) {
        if (budgetMb != null) {
            return budgetMb * 1_000_000;
        }
        long measured = base.orderService() == null ? -1 : base.orderService().feedBudget();
        return measured > 0 ? measured : LessonArithmetic.LESSON_BUDGET_BYTES;
    }

    private int report(RateProfile profile, LessonArithmetic predicted, List<Snapshot> snapshots, OpenLoopDriver driver,
            @Nullable Double diedAtSeconds, PrintWriter out) {
        RushMeasurement measurement = new RushMeasurement(snapshots, profile, predicted);
        Snapshot base = snapshots.get(0);
        Snapshot last = snapshots.get(snapshots.size() - 1);
        long readAtEnd = Double.isNaN(measurement.read(last)) ? -1 : (long) measurement.read(last);
        RushMeasurement.Death death = diedAtSeconds == null ? null : measurement.death(diedAtSeconds, readAtEnd);
        if (death != null && base.orderService() != null) {
            death = new RushMeasurement.Death(death.atSeconds(), death.clock(),
                    death.acceptedIntoFeed() + base.orderService().feedBuffered(), death.deliveredToJob(),
                    death.lastSeenBuffered());
        }
        OpenLoopDriver.Counters counters = driver.counters();
        Histogram latency = driver.latencyHistogram();
        Histogram lag = driver.lagHistogram();
        GeneratorVerdict verdict = GeneratorVerdict.of(profile, driver);

        out.printf("Orders: %,d sent, %,d placed (201), %,d throttled (429) of which %,d retried with the same "
                + "Idempotency-Key, %,d gave up, %,d refused (503), %,d timed out (outcome unknown), %,d failed "
                + "without an answer, %,d re-sent after a dropped connection%s%n",
                counters.scheduled.sum(), counters.accepted.sum(), counters.throttled.sum(), counters.retried.sum(),
                counters.gaveUp.sum(), counters.unavailable.sum(), counters.timeouts.sum(), counters.errors.sum(),
                counters.reconnects.sum(),
                counters.otherStatuses.isEmpty() ? "" : ", other statuses " + counters.otherStatuses);
        if (!counters.errorKinds.isEmpty()) {
            out.println("Failures without an answer: " + counters.errorKinds);
        }
        if (latency.getTotalCount() > 0) {
            out.printf("Latency of placed orders from their intended send time: p50 %.1f ms, p99 %.1f ms, "
                    + "p99.9 %.1f ms, max %.1f ms%n", millis(latency, 50), millis(latency, 99), millis(latency, 99.9),
                    latency.getMaxValue() / 1000.0);
        }
        out.println(verdict.sentence());
        if (death != null) {
            out.printf("%nThe order service DIED at %s (%.1f s into the rush)%s. Events that died with it: %,d "
                    + "(accepted into the feed %,d − delivered to the job %,d; last seen in the feed: %,d).%n",
                    death.clock(), death.atSeconds(), measurement.isMemoryFeed() ? " with its in-memory feed" : "",
                    death.eventsLost(), death.acceptedIntoFeed(), death.deliveredToJob(), death.lastSeenBuffered());
        }
        List<RushMeasurement.Line> lines = measurement.lines(death);
        out.println();
        out.printf("The lesson, measured against predicted (act %s, speed %s; times in wall seconds):%n",
                act(snapshots), trim(profile.speed()));
        String format = "%-34s %-9s %13s %13s %10s  %s%n";
        out.printf(format, "", "unit", "measured", "predicted", "diff", "");
        for (RushMeasurement.Line line : lines) {
            out.printf(format, line.name(), line.unit(), number(line.measured()), number(line.predicted()),
                    percent(line.differencePercent()), line.note());
        }
        out.flush();
        if (json != null) {
            writeJson(json, profile, counters, latency, lag, verdict, death, lines, measurement, snapshots);
            out.println("JSON written to " + json);
        }
        return 0;
    }

    private void writeJson(Path file, RateProfile profile, OpenLoopDriver.Counters counters, Histogram latency,
            Histogram lag, GeneratorVerdict verdict, RushMeasurement.@Nullable Death death,
            List<RushMeasurement.Line> lines, RushMeasurement measurement, List<Snapshot> snapshots) {
        ObjectNode root = ServiceClient.JSON.createObjectNode();
        root.put("profile", profile.name());
        root.put("speed", profile.speed());
        root.put("act", act(snapshots));
        ArrayNode segments = root.putArray("segments");
        for (RateProfile.Segment segment : profile.segments()) {
            segments.addObject().put("label", segment.label()).put("ratePerSecond", segment.ratePerSecond())
                    .put("seconds", segment.seconds());
        }
        ObjectNode orders = root.putObject("orders");
        orders.put("sent", counters.scheduled.sum());
        orders.put("placed", counters.accepted.sum());
        orders.put("throttled", counters.throttled.sum());
        orders.put("retried", counters.retried.sum());
        orders.put("gaveUp", counters.gaveUp.sum());
        orders.put("unavailable", counters.unavailable.sum());
        orders.put("timeouts", counters.timeouts.sum());
        orders.put("connectionErrors", counters.errors.sum());
        orders.put("resentAfterDroppedConnection", counters.reconnects.sum());
        ObjectNode others = orders.putObject("otherStatuses");
        counters.otherStatuses.forEach((status, n) -> others.put(String.valueOf(status), n.sum()));
        ObjectNode latencyNode = root.putObject("latencyMillis");
        latencyNode.put("p50", millis(latency, 50));
        latencyNode.put("p99", millis(latency, 99));
        latencyNode.put("p999", millis(latency, 99.9));
        latencyNode.put("max", latency.getMaxValue() / 1000.0);
        ObjectNode generator = root.putObject("generator");
        generator.put("heldRate", verdict.held());
        generator.put("achievedRatePerSecond", verdict.achievedRate());
        generator.put("askedRatePerSecond", verdict.askedRate());
        generator.put("scheduleLagP99Millis", millis(lag, 99));
        generator.put("lateSends", counters.lateSends.sum());
        ObjectNode measured = root.putObject("measuredRates");
        measured.put("in", measurement.inRate());
        measured.put("out", measurement.outRate());
        measured.put("eventBytes", measurement.eventBytes());
        if (death != null) {
            ObjectNode died = root.putObject("orderServiceDied");
            died.put("atSeconds", death.atSeconds());
            died.put("clock", death.clock());
            died.put("eventsLost", death.eventsLost());
            died.put("acceptedIntoFeed", death.acceptedIntoFeed());
            died.put("deliveredToJob", death.deliveredToJob());
            died.put("lastSeenBuffered", death.lastSeenBuffered());
        }
        else {
            root.putNull("orderServiceDied");
        }
        ArrayNode lesson = root.putArray("lesson");
        for (RushMeasurement.Line line : lines) {
            ObjectNode node = lesson.addObject();
            node.put("name", line.name());
            node.put("unit", line.unit());
            putNumber(node, "measured", line.measured());
            putNumber(node, "predicted", line.predicted());
            putNumber(node, "differencePercent", line.differencePercent());
            node.put("note", line.note());
        }
        ArrayNode samples = root.putArray("snapshots");
        Snapshot base = snapshots.get(0);
        for (Snapshot snapshot : snapshots) {
            ObjectNode node = samples.addObject();
            node.put("seconds", snapshot.elapsedSeconds());
            node.put("placed", snapshot.accepted() - base.accepted());
            putNumber(node, "read", measurement.read(snapshot));
            node.put("backlog", snapshot.dashboardBacklog());
            if (snapshot.orderService() != null) {
                node.put("feedBuffered", snapshot.orderService().feedBuffered());
                node.put("feedBufferedBytes", snapshot.orderService().feedBufferedBytes());
                node.put("heapUsedAfterGcBytes", snapshot.orderService().heapUsedAfterGc());
            }
            else {
                node.put("orderServiceDown", true);
            }
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, ServiceClient.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    private static void putNumber(ObjectNode node, String field, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            node.putNull(field);
        }
        else {
            node.put(field, value);
        }
    }

    /** The profile asked for, checked: inconsistent flags are bad input (exit 2). */
    RateProfile profile() {
        if (!(speed > 0)) {
            throw DemoException.badInput("--speed must be positive, not " + trim(speed));
        }
        if (rate != null && !(rate > 0) || thenRate != null && !(thenRate > 0)) {
            throw DemoException.badInput("rates must be positive");
        }
        if (count < 0) {
            throw DemoException.badInput("--count must not be negative");
        }
        String name = profileName != null ? profileName
                : rate == null ? "lunch" : thenRate != null || thenDuration != null ? "custom" : "constant";
        return switch (name) {
            case "lunch" -> {
                if (rate != null || duration != null || thenRate != null || thenDuration != null) {
                    throw DemoException.badInput("the lunch profile has its own rates and durations; "
                            + "use --speed N, or --profile constant/custom with --rate and --duration");
                }
                yield RateProfile.lunch(speed);
            }
            case "constant" -> {
                if (thenRate != null || thenDuration != null) {
                    throw DemoException.badInput("--then-rate and --then-duration belong to the step and custom profiles");
                }
                if (rate == null) {
                    throw DemoException.badInput("the constant profile needs --rate R (and --duration D or --count N)");
                }
                Duration length = duration != null ? duration
                        : count > 0 ? Duration.ofMillis((long) Math.ceil(count * 1000.0 / rate)) : null;
                if (length == null) {
                    throw DemoException.badInput("the constant profile needs --duration D (like 30s or 2m) or --count N");
                }
                yield RateProfile.constant(rate, length, speed);
            }
            case "step" -> RateProfile.twoSteps("step", rate == null ? 100 : rate,
                    duration == null ? Duration.ofSeconds(30) : duration,
                    thenRate == null ? 4 * (rate == null ? 100 : rate) : thenRate,
                    thenDuration == null ? (duration == null ? Duration.ofSeconds(30) : duration) : thenDuration, speed);
            case "custom" -> {
                if (rate == null || duration == null || thenRate == null || thenDuration == null) {
                    throw DemoException.badInput("the custom profile needs --rate, --duration, --then-rate and --then-duration");
                }
                yield RateProfile.twoSteps("custom", rate, duration, thenRate, thenDuration, speed);
            }
            default -> throw DemoException.badInput("unknown profile '" + name + "'; profiles are lunch, constant, step, custom");
        };
    }

    static String describe(RateProfile profile) {
        StringBuilder text = new StringBuilder("Rush '" + profile.name() + "' at speed " + trim(profile.speed()) + ": ");
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < profile.segments().size(); i++) {
            RateProfile.Segment segment = profile.segments().get(i);
            Duration from = profile.offset(i);
            parts.add("%s/s for %s s (%s-%s)".formatted(trim(segment.ratePerSecond()), trim(segment.seconds()),
                    profile.clock(from), profile.clock(from.plus(segment.duration()))));
        }
        text.append(String.join(", then ", parts));
        text.append("; %,d orders.".formatted(profile.totalOrders()));
        return text.toString();
    }

    private static Duration drainTimeout(RateProfile profile) {
        if (profile.segments().size() < 2) {
            return Duration.ofSeconds(3);
        }
        long seconds = Math.max(5, Math.round(profile.totalDuration().toSeconds() * 0.25));
        return Duration.ofSeconds(seconds);
    }

    private List<String> notes(OpenLoopDriver driver, DeathWatch deathWatch, Snapshot last, RateProfile profile) {
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

    private static void sleepUntil(long nanos) {
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

    private static String act(List<Snapshot> snapshots) {
        for (Snapshot snapshot : snapshots) {
            if (snapshot.orderService() != null) {
                Snapshot.OrderServiceStats stats = snapshot.orderService();
                return stats.memoryFeed() ? stats.act() + "/" + stats.strategy() : stats.act();
            }
        }
        return "unknown";
    }

    static double millis(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    static String number(double value) {
        if (Double.isNaN(value)) {
            return "—";
        }
        if (Double.isInfinite(value)) {
            return "never";
        }
        return Math.abs(value) >= 100 ? "%,.0f".formatted(value) : "%,.1f".formatted(value);
    }

    static String percent(double value) {
        return Double.isNaN(value) ? "" : "%+.1f%%".formatted(value);
    }

    static String trim(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    /**
     * Decides whether the order service died during the rush, and when. Dead means its process is gone (the pid
     * of {@code ./demo up}'s pid file), never merely silent: a service too busy to answer the status polls is
     * alive. The death is dated by the process's exit, watched from the start of the rush, not by the last poll
     * it answered. Without a pid file (a stack in Docker) a service silent for {@value #MISSES_WITHOUT_PID} polls
     * in a row counts as dead, dated by the first poll it missed.
     */
    static final class DeathWatch {

        static final int MISSES_WITHOUT_PID = 5;

        private final Path pidFile;
        private final long startNanos;
        private final @Nullable ProcessHandle process;
        private volatile long exitNanos;
        private boolean seenUp;
        private int missed;
        private @Nullable Snapshot firstMissed;
        private boolean dead;

        DeathWatch(Path root, long startNanos) {
            this.pidFile = root.resolve(".run").resolve("order-service.pid");
            this.startNanos = startNanos;
            this.process = process(pidFile);
            if (process != null && process.pid() != ProcessHandle.current().pid()) {
                process.onExit().thenRun(() -> exitNanos = System.nanoTime());
            }
        }

        /** True when this snapshot shows it died. */
        boolean observe(Snapshot snapshot) {
            if (dead) {
                return true;
            }
            if (snapshot.orderServiceUp()) {
                seenUp = true;
                missed = 0;
                firstMissed = null;
                return false;
            }
            if (!seenUp) {
                return false;
            }
            if (missed++ == 0) {
                firstMissed = snapshot;
            }
            Boolean gone = processGone();
            dead = gone != null ? gone : missed >= MISSES_WITHOUT_PID;
            return dead;
        }

        boolean dead() {
            return dead;
        }

        /** When it died, seconds into the rush: its process's exit, else the first poll it missed; null while it lives. */
        @Nullable Double diedAtSeconds() {
            if (!dead) {
                return null;
            }
            long exit = exitNanos;
            if (exit != 0) {
                return Math.max(0, exit - startNanos) / 1e9;
            }
            return firstMissed == null ? null : firstMissed.elapsedSeconds();
        }

        String diedAt(RateProfile profile) {
            Double at = diedAtSeconds();
            return at == null ? "?" : profile.clock(Duration.ofNanos(Math.round(at * 1e9)));
        }

        /** Whether the process in the pid file is gone; null when there is no pid file to tell. */
        private @Nullable Boolean processGone() {
            if (process != null) {
                return !process.isAlive();
            }
            Long pid = pid(pidFile);
            return pid == null ? null : ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
        }

        private static @Nullable ProcessHandle process(Path pidFile) {
            Long pid = pid(pidFile);
            return pid == null ? null : ProcessHandle.of(pid).orElse(null);
        }

        /** The pid in {@code ./demo up}'s pid file; null when there is none to read. */
        private static @Nullable Long pid(Path pidFile) {
            try {
                return Files.isRegularFile(pidFile) ? Long.parseLong(Files.readString(pidFile).strip()) : null;
            }
            catch (IOException | NumberFormatException ex) {
                return null;
            }
        }
    }

    /** The dashboard's capacity for the rush, and the old value to put back after it (also on Ctrl+C). */
    static final class CapacityOverride {

        private final ServiceClient dashboard;
        private final double previous;
        private boolean restored;

        private CapacityOverride(ServiceClient dashboard, double previous) {
            this.dashboard = dashboard;
            this.previous = previous;
        }

        static @Nullable CapacityOverride apply(ServiceClient dashboard, double capacity, PrintWriter out) {
            try {
                JsonNode stats = dashboard.get("/api/stats");
                double previous = ServiceClient.decimal(stats, "capacityPerSecond");
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("eventsPerSecond", capacity);
                dashboard.put("/admin/capacity", body, true);
                out.printf("analytics-dashboard capacity set to %s events/s for the rush (was %s)%n", trim(capacity),
                        trim(previous));
                return previous > 0 ? new CapacityOverride(dashboard, previous) : null;
            }
            catch (DemoException ex) {
                out.println("warning: could not set the dashboard's capacity: " + ex.getMessage());
                return null;
            }
        }

        synchronized void restore(@Nullable PrintWriter out) {
            if (restored) {
                return;
            }
            restored = true;
            try {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("eventsPerSecond", previous);
                dashboard.put("/admin/capacity", body, true);
                if (out != null) {
                    out.printf("analytics-dashboard capacity restored to %s events/s%n", trim(previous));
                }
            }
            catch (DemoException ex) {
                if (out != null) {
                    out.println("warning: could not restore the dashboard's capacity: " + ex.getMessage());
                }
            }
        }
    }

    /** Whether the generator held the asked rate: what it achieved, and how late its sends were. */
    record GeneratorVerdict(boolean held, double askedRate, double achievedRate, double lagP99Millis) {

        static GeneratorVerdict of(RateProfile profile, OpenLoopDriver driver) {
            OpenLoopDriver.Counters counters = driver.counters();
            long sent = counters.scheduled.sum();
            long first = counters.firstSendNanos.get();
            long last = counters.lastSendNanos.get();
            double seconds = (last - first) / 1e9;
            double achieved = sent > 1 && seconds > 0 ? (sent - 1) / seconds : 0;
            double planned = Math.min(seconds, profile.totalDuration().toNanos() / 1e9);
            double asked = planned > 0 ? expectedOrders(profile, planned) / planned : profile.segments().get(0).ratePerSecond();
            double lagP99 = millis(driver.lagHistogram(), 99);
            boolean held = (asked == 0 || achieved >= 0.95 * asked) && lagP99 <= OpenLoopDriver.LATE_NANOS / 1e6;
            return new GeneratorVerdict(held, asked, achieved, lagP99);
        }

        private static double expectedOrders(RateProfile profile, double seconds) {
            double remaining = seconds;
            double orders = 0;
            for (RateProfile.Segment segment : profile.segments()) {
                double span = Math.min(remaining, segment.seconds());
                orders += span * segment.ratePerSecond();
                remaining -= span;
                if (remaining <= 0) {
                    break;
                }
            }
            return orders;
        }

        String sentence() {
            if (held) {
                return "Generator: held the asked rate (%.0f/s asked, %.0f/s sent; p99 schedule lag %.1f ms)."
                        .formatted(askedRate, achievedRate, lagP99Millis);
            }
            return ("WARNING: the generator did NOT hold the asked rate: %.0f/s asked, %.0f/s sent, p99 schedule lag "
                    + "%.1f ms. The figures below are distorted by the generator, not only by the stack "
                    + "(try --max-in-flight, fewer other processes, or a lower --speed).")
                    .formatted(askedRate, achievedRate, lagP99Millis);
        }
    }
}
