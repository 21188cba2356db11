package dev.lunchrush.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * {@code ./demo bench --section cpu}: the CPU an order costs each process of the stack of {@code ./demo up}, in the
 * log act at a steady 400/s and 200/s, as {@code /proc} counts it ({@code utime} + {@code stime} of every process
 * before and after a measured window, divided by the orders placed in it), beside the goals of the issue; and, in
 * the same run, what the references cost: the order service per {@code GET /menu} at the same rate, the Kafka broker
 * and {@code kafka-producer-perf-test} per record.
 */
final class CpuPerOrder {

    /** The stack's services, their pid files {@code .run/<name>.pid} and their ports, 8080 on. */
    static final List<String> SERVICES = List.of("order-service", "kitchen-screen", "analytics-dashboard",
            "report-replayer", "backlog-monitor");
    /** The section's key in the JSON. */
    static final String KEY = "cpu";
    static final String DRIVER = "load-generator";
    static final int RABBITMQ_PORT = 5672;
    static final int PROMETHEUS_PORT = 9090;
    /** The warm-up before a window goes on in steps of 10 s while the JVMs still compile, for at most two minutes. */
    static final Duration MOST_WARM_UP = Duration.ofSeconds(120);
    static final Duration WARM_UP_STEP = Duration.ofSeconds(10);

    /** A goal of the issue: the processes' CPU per order together at most {@code limitMillis}, judged at the first rate. */
    record Goal(String label, double limitMillis, List<String> members) {
    }

    /** A process to measure and how it was found; {@code pid} is null when it was not ({@code how} then says why). */
    record Target(String name, @Nullable Long pid, String how) {
    }

    /** One process's CPU over a window; the figures are null when it was not found or did not live through it. */
    record ProcessFigures(String name, @Nullable Long pid, String foundBy, @Nullable Long ticks, @Nullable Double cpuSeconds,
            @Nullable Double msPerOrder, @Nullable Double shareOfOneCore, @Nullable String note) {
    }

    /** {@code /proc/stat}'s busy ticks over a window, every core. */
    record MachineFigures(long busyTicks, long allTicks, double cpuSeconds, @Nullable Double msPerOrder, double shareOfAllCores) {
    }

    /** A goal's figure at each rate (null where a member was not measured) and whether the first rate's holds. */
    record GoalFigures(String label, double limitMillis, List<String> members, Map<String, @Nullable Double> msPerOrder,
            String verdict) {
    }

    /**
     * Everything one measured window saw. {@code rateHeld}: at least 95% of the asked rate answered over the asked
     * window; a stack that cannot keep up has its window cut once the driver is 5 s behind (as the search's steps), and
     * its figures are then per order of what it did answer. {@code warmUpSeconds}: how long the warm-up before it took
     * (until the JVMs' compilers had settled, {@link JitSettling}); {@code jitTicks}: what each JVM's compiler threads
     * took within the window, a part of its ticks.
     */
    record Window(double ratePerSecond, String what, double warmUpSeconds, long askedSeconds, double windowSeconds,
            boolean rateHeld, long orders, String ordersFrom,
            long driverAccepted, long driverNotAccepted, @Nullable Map<String, Long> readersReceived, RateSearch.Step intake,
            List<ProcessFigures> processes, Map<String, Long> jitTicks, MachineFigures machine) {

        @Nullable Double msPerOrder(String name) {
            return processes.stream().filter(p -> p.name().equals(name)).findFirst().map(ProcessFigures::msPerOrder).orElse(null);
        }
    }

    /** The readings a window starts and ends with. */
    record Mark(long nanos, Map<String, ProcStat.Process> processes, Map<String, Long> compilerTicks, long driverCpuNanos,
            ProcStat.Machine machine, @Nullable Double placed, @Nullable Map<String, Long> readers) {
    }

    private final Path root;
    private final List<String> kafkaBrokers;
    private final String bootstrapServers;
    private final ServiceClient orderService;
    private final ServiceClient kitchenScreen;
    private final ServiceClient dashboard;
    private final boolean smoke;
    private final PrintWriter out;
    private final long hz = ProcStat.clockTicksPerSecond();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    CpuPerOrder(Path root, List<String> kafkaBrokers, String bootstrapServers, ServiceClient orderService,
            ServiceClient kitchenScreen, ServiceClient dashboard, boolean smoke, PrintWriter out) {
        this.root = root;
        this.kafkaBrokers = kafkaBrokers;
        this.bootstrapServers = bootstrapServers;
        this.orderService = orderService;
        this.kitchenScreen = kitchenScreen;
        this.dashboard = dashboard;
        this.smoke = smoke;
        this.out = out;
    }

    /** The section of a run, on the run's stack and services. */
    CpuPerOrder(BenchRun run) {
        this(run.root(), run.stack().kafkaBrokers(), run.stack().bootstrapServers(), run.orderService(), run.kitchenScreen(),
                run.dashboard(), run.smoke(), run.out());
    }

    /** The goals of the issue, in ms of CPU per order at 400/s. */
    List<Goal> goals() {
        List<String> all = new ArrayList<>(SERVICES);
        all.addAll(kafkaBrokers);
        all.addAll(List.of("rabbitmq", "prometheus", DRIVER));
        List<Goal> goals = new ArrayList<>();
        goals.add(new Goal("all processes together", 1.0, all));
        goals.add(new Goal("order service", 0.30, List.of("order-service")));
        for (String broker : kafkaBrokers) {
            goals.add(new Goal(kafkaBrokers.size() == 1 ? "Kafka broker" : "Kafka broker " + broker, 0.10, List.of(broker)));
        }
        goals.add(new Goal("RabbitMQ", 0.10, List.of("rabbitmq")));
        goals.add(new Goal("kitchen screen", 0.10, List.of("kitchen-screen")));
        goals.add(new Goal("analytics dashboard", 0.10, List.of("analytics-dashboard")));
        goals.add(new Goal("load generator (the driver)", 0.10, List.of(DRIVER)));
        goals.add(new Goal("backlog monitor + Prometheus", 0.05, List.of("backlog-monitor", "prometheus")));
        return goals;
    }

    /**
     * Runs the section on a stack whose readers have worked off their backlog: log act, the dashboard's capacity
     * lifted for the section (at its configured 250/s it would read only part of a 400/s window and look cheaper per
     * order), a warm-up and a measured window at each rate, then the references.
     */
    Part run(Supplier<byte[]> orderBodies, int recordSize) {
        orderService.put("/admin/act", Map.of("act", "log"), true);
        List<Double> rates = smoke ? List.of(50.0, 25.0) : List.of(400.0, 200.0);
        Duration warmUp = smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(20);
        Duration measured = smoke ? Duration.ofSeconds(4) : Duration.ofSeconds(40);
        double previousCapacity = dashboard.get("/api/stats").path("capacityPerSecond").asDouble();
        dashboard.put("/admin/capacity", Map.of("eventsPerSecond", 1_000_000), true);
        Map<String, Window> windows = new LinkedHashMap<>();
        Window menu;
        ProducerPerfCpu producer;
        try {
            URI orders = Endpoints.resolve(orderService.base(), "/orders");
            for (double rate : rates) {
                windows.put(key(rate), measure("cpu: POST /orders at %,.0f/s".formatted(rate), "POST /orders, log act", orders,
                        orderBodies, rate, warmUp, measured));
            }
            // the order service's cheapest endpoint at the same rate, the same driver (GETs): what a request costs it
            menu = measure("cpu: GET /menu at %,.0f/s".formatted(rates.get(0)), "GET /menu (reference)",
                    Endpoints.resolve(orderService.base(), "/menu"), null, rates.get(0), smoke ? warmUp : Duration.ofSeconds(10),
                    smoke ? measured : Duration.ofSeconds(30));
        }
        finally {
            dashboard.put("/admin/capacity", Map.of("eventsPerSecond", Math.round(previousCapacity)), true);
        }
        producer = producerPerf(smoke ? 2_000 : 500_000, recordSize);

        List<GoalFigures> goals = judge(goals(), windows, rates.get(0));
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("method", "utime+stime of each process (/proc/PID/stat fields 14, 15) over the measured window, "
                + "divided by the clock ticks a second and by the orders placed in the window (the order service's "
                + "orders_placed_total, summed over its labels; the driver's accepted count when it cannot be read); the driver "
                + "is this JVM (OperatingSystemMXBean.getProcessCpuTime); the machine is /proc/stat's first line (user + nice + "
                + "system + irq + softirq). Log act; the dashboard's capacity lifted during the section so that it reads every "
                + "order of a window. Goals judged at " + key(rates.get(0)) + "/s" + (smoke ? " (smoke: not judged)" : ""));
        section.put("clockTicksPerSecond", hz);
        section.put("cores", Runtime.getRuntime().availableProcessors());
        section.put("rates", windows);
        section.put("goals", goals);
        Map<String, Object> references = new LinkedHashMap<>();
        references.put("getMenu", menu);
        references.put("producerPerf", producer);
        section.put("references", references);
        return new Part(KEY, section, rows(rates, windows, goals, menu, producer));
    }

    /** A warm-up, then a window measured from {@code /proc}; the figures printed as they come. */
    private Window measure(String name, String what, URI uri, @Nullable Supplier<byte[]> bodies, double rate, Duration warmUp,
            Duration window) {
        List<Target> targets = targets();
        AtomicBoolean first = new AtomicBoolean(true);
        // the scrapes of counters cost the services a little CPU: before the window's /proc readings at its start,
        // after them at its end; nothing is sent at either moment, so the counters do not move meanwhile
        RateSearch.WarmUp warming = smoke ? RateSearch.WarmUp.fixed(warmUp) : new RateSearch.WarmUp(warmUp, MOST_WARM_UP,
                WARM_UP_STEP, new JitSettling(() -> compilerTicks(targets).values().stream().mapToLong(Long::longValue).sum(),
                        hz, name, out)::settled);
        RateSearch.Measured<Mark> run = RateSearch.warmThenMeasure(name, uri, bodies, rate, warming, window,
                RateSearch.Marks.of(() -> first.getAndSet(false) ? markCountersFirst(targets) : markProcFirst(targets)), out);
        Mark before = run.before();
        Mark after = run.after();
        RateSearch.Step step = run.step();
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        long accepted = step.accepted();
        long orders = accepted;
        String ordersFrom = "the driver's accepted requests";
        if (bodies != null && before.placed() != null && after.placed() != null) {
            orders = Math.round(after.placed() - before.placed());
            ordersFrom = "orders_placed_total";
        }
        List<ProcessFigures> processes = new ArrayList<>();
        for (Target target : targets) {
            processes.add(target.pid() == null
                    ? new ProcessFigures(target.name(), null, "", null, null, null, null, target.how())
                    : figures(target.name(), target.how(), before.processes().get(target.name()),
                            after.processes().get(target.name()), hz, orders, seconds));
        }
        processes.add(driverFigures(after.driverCpuNanos() - before.driverCpuNanos(), orders, seconds));
        ProcStat.Machine machine = after.machine().minus(before.machine());
        MachineFigures machineFigures = new MachineFigures(machine.busy(), machine.total(), machine.busy() / (double) hz,
                perOrder(machine.busy() / (double) hz, orders), machine.total() == 0 ? 0 : machine.busy() / (double) machine.total());
        Map<String, Long> readers = null;
        if (before.readers() != null && after.readers() != null) {
            readers = new LinkedHashMap<>();
            for (String reader : after.readers().keySet()) {
                readers.put(reader, after.readers().get(reader) - before.readers().getOrDefault(reader, 0L));
            }
        }
        boolean rateHeld = accepted >= 0.95 * rate * window.toMillis() / 1000.0;
        Map<String, Long> jitTicks = new LinkedHashMap<>();
        after.compilerTicks().forEach((process, ticks) -> {
            Long start = before.compilerTicks().get(process);
            if (start != null && ticks >= start) {
                jitTicks.put(process, ticks - start);
            }
        });
        Window result = new Window(rate, what, Math.round(run.warmUpSeconds() * 10) / 10.0, window.toSeconds(), seconds, rateHeld,
                orders, ordersFrom, accepted, step.notAccepted(), readers, step, processes, jitTicks, machineFigures);
        print(result);
        return result;
    }

    /**
     * The ticks of the JIT compiler threads of every JVM of the stack (all but RabbitMQ, Erlang, and Prometheus, Go) and
     * of this one (the driver's), by process name.
     */
    private static Map<String, Long> compilerTicks(List<Target> targets) {
        Map<String, Long> compilers = new LinkedHashMap<>();
        for (Target target : targets) {
            if (target.pid() != null && !target.name().equals("rabbitmq") && !target.name().equals("prometheus")) {
                compilers.put(target.name(), ProcStat.compilerTicks(target.pid()));
            }
        }
        compilers.put(DRIVER, ProcStat.compilerTicks(ProcessHandle.current().pid()));
        return compilers;
    }

    /** The process's CPU between two readings of it; no figures when it was missing at either or restarted between. */
    static ProcessFigures figures(String name, String foundBy, ProcStat.@Nullable Process before, ProcStat.@Nullable Process after,
            long hz, long orders, double seconds) {
        if (before == null || after == null) {
            return new ProcessFigures(name, before != null ? before.pid() : after != null ? after.pid() : null, foundBy, null, null,
                    null, null, "no /proc reading " + (before == null ? "at the start of the window" : "at its end (gone?)"));
        }
        if (before.pid() != after.pid() || before.startTime() != after.startTime()) {
            return new ProcessFigures(name, after.pid(), foundBy, null, null, null, null, "restarted during the window");
        }
        long ticks = after.ticks() - before.ticks();
        double cpuSeconds = ticks / (double) hz;
        return new ProcessFigures(name, after.pid(), foundBy, ticks, cpuSeconds, perOrder(cpuSeconds, orders),
                seconds <= 0 ? null : cpuSeconds / seconds, null);
    }

    static ProcessFigures driverFigures(long cpuNanos, long orders, double seconds) {
        double cpuSeconds = cpuNanos / 1e9;
        return new ProcessFigures(DRIVER, ProcessHandle.current().pid(), "this JVM (getProcessCpuTime)", null, cpuSeconds,
                perOrder(cpuSeconds, orders), seconds <= 0 ? null : cpuSeconds / seconds, null);
    }

    /** Milliseconds of CPU per order; null without orders. */
    static @Nullable Double perOrder(double cpuSeconds, long orders) {
        return orders <= 0 ? null : cpuSeconds * 1000 / orders;
    }

    /** Each goal's sum at every rate; the verdict is the first rate's (null members: not measured, no verdict). */
    List<GoalFigures> judge(List<Goal> goals, Map<String, Window> windows, double judgedRate) {
        List<GoalFigures> judged = new ArrayList<>();
        for (Goal goal : goals) {
            Map<String, @Nullable Double> sums = new LinkedHashMap<>();
            for (Map.Entry<String, Window> window : windows.entrySet()) {
                sums.put(window.getKey(), sum(window.getValue(), goal.members()));
            }
            Double judgedSum = sums.get(key(judgedRate));
            String verdict = smoke ? "not judged (smoke)" : judgedSum == null ? "not measured"
                    : judgedSum <= goal.limitMillis() ? "held" : "missed";
            judged.add(new GoalFigures(goal.label(), goal.limitMillis(), goal.members(), sums, verdict));
        }
        return judged;
    }

    /**
     * The members' CPU per order added up; Prometheus counts as nothing when it does not run (it is optional), any
     * other member missing makes the sum unknown.
     */
    static @Nullable Double sum(Window window, List<String> members) {
        double sum = 0;
        for (String member : members) {
            Optional<ProcessFigures> figures = window.processes().stream().filter(p -> p.name().equals(member)).findFirst();
            if (figures.isEmpty()) {
                continue;
            }
            Double value = figures.get().msPerOrder();
            if (value == null) {
                if (member.equals("prometheus") && figures.get().pid() == null) {
                    continue;
                }
                return null;
            }
            sum += value;
        }
        return sum;
    }

    /** Every process of the stack, found by the pid files of {@code ./demo up}, else by the port it listens on. */
    List<Target> targets() {
        List<Target> targets = new ArrayList<>();
        for (int i = 0; i < SERVICES.size(); i++) {
            targets.add(byPidFile(SERVICES.get(i), SERVICES.get(i), 8080 + i));
        }
        String[] servers = bootstrapServers.split(",");
        for (int i = 0; i < kafkaBrokers.size(); i++) {
            int port = i < servers.length ? Integer.parseInt(servers[i].substring(servers[i].lastIndexOf(':') + 1).strip()) : -1;
            targets.add(byPidFile(kafkaBrokers.get(i), "kafka", port));
        }
        OptionalLong rabbit = ProcStat.listeningPid(RABBITMQ_PORT);
        targets.add(rabbit.isPresent() ? new Target("rabbitmq", rabbit.getAsLong(), "owner of :" + RABBITMQ_PORT + " ("
                + ProcStat.read(rabbit.getAsLong()).map(ProcStat.Process::comm).orElse("?") + ")")
                : new Target("rabbitmq", null, "RabbitMQ's process cannot be found: nothing this user can see listens on :"
                        + RABBITMQ_PORT + " (/proc/net/tcp and /proc/*/fd; another user's process needs root)"));
        Target prometheus = byPidFile("prometheus", "prometheus", PROMETHEUS_PORT);
        targets.add(prometheus.pid() != null ? prometheus : new Target("prometheus", null, "not running (no .run/prometheus.pid, "
                + "nothing on :" + PROMETHEUS_PORT + ")"));
        return targets;
    }

    /**
     * The process in {@code .run/<name>.pid} when it is alive and its command line names what it runs (a pid may have
     * been reused, as {@code ./demo up} itself checks), else the process listening on its port.
     */
    private Target byPidFile(String name, String marker, int port) {
        Path pidFile = root.resolve(".run").resolve(name + ".pid");
        try {
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).strip());
            Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(handle -> handle.info().commandLine().map(line -> line.contains(marker)).orElse(true));
            if (process.isPresent()) {
                return new Target(name, pid, ".run/" + name + ".pid");
            }
        }
        catch (IOException | NumberFormatException ex) {
            // no pid file: ask the port
        }
        OptionalLong owner = port > 0 ? ProcStat.listeningPid(port) : OptionalLong.empty();
        return owner.isPresent() ? new Target(name, owner.getAsLong(), "owner of :" + port)
                : new Target(name, null, "no live process in .run/" + name + ".pid" + (port > 0 ? " nor on :" + port : ""));
    }

    private Mark markCountersFirst(List<Target> targets) {
        Optional<Double> placed = placed();
        Map<String, Long> readers = readers();
        return procMark(targets, placed.orElse(null), readers);
    }

    private Mark markProcFirst(List<Target> targets) {
        Mark mark = procMark(targets, null, null);
        return new Mark(mark.nanos(), mark.processes(), mark.compilerTicks(), mark.driverCpuNanos(), mark.machine(),
                placed().orElse(null), readers());
    }

    private Mark procMark(List<Target> targets, @Nullable Double placed, @Nullable Map<String, Long> readers) {
        long nanos = System.nanoTime();
        Map<String, ProcStat.Process> processes = new LinkedHashMap<>();
        for (Target target : targets) {
            if (target.pid() != null) {
                ProcStat.read(target.pid()).ifPresent(reading -> processes.put(target.name(), reading));
            }
        }
        Map<String, Long> compilers = compilerTicks(targets);
        long driver = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        return new Mark(nanos, processes, compilers, driver, ProcStat.machine(), placed, readers);
    }

    /** The order service's {@code orders_placed_total}, summed over its labels. */
    private Optional<Double> placed() {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(Endpoints.resolve(orderService.base(),
                    "/actuator/prometheus")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(placedTotal(response.body())) : Optional.empty();
        }
        catch (IOException ex) {
            return Optional.empty();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    static double placedTotal(String prometheusText) {
        double sum = 0;
        for (String line : prometheusText.split("\n")) {
            if (line.startsWith("orders_placed_total")) {
                String[] parts = line.strip().split("\\s+");
                sum += Double.parseDouble(parts[parts.length - 1]);
            }
        }
        return sum;
    }

    private @Nullable Map<String, Long> readers() {
        Map<String, Long> totals = new LinkedHashMap<>();
        for (ServiceClient reader : List.of(kitchenScreen, dashboard)) {
            Optional<Long> total = reader.tryGet("/api/stats", Duration.ofSeconds(5)).map(stats -> stats.path("total").asLong());
            if (total.isEmpty()) {
                return null;
            }
            totals.put(reader.name(), total.get());
        }
        return totals;
    }

    /** {@code kafka-producer-perf-test}'s own CPU per record, and the brokers' while it ran. */
    record ProducerPerfCpu(long records, double recordsPerSecond, double toolCpuSeconds, @Nullable Double toolMsPerRecord,
            String toolCpuFrom, Map<String, @Nullable Double> brokerMsPerRecord, Map<String, @Nullable Long> brokerTicks,
            double seconds) {
    }

    /**
     * Runs the tool as the intake section does (acks=all, idempotent, as fast as it goes). Its CPU is what this JVM's
     * children's ticks ({@code /proc/self/stat} fields 16 and 17, the CPU of the children it waited for) grew by
     * while it ran: the tool is the only child, and its JVM's start is in it.
     */
    private ProducerPerfCpu producerPerf(long records, int recordSize) {
        say("cpu: kafka-producer-perf-test, %,d records of %d B, acks=all, idempotent…".formatted(records, recordSize));
        KafkaTools tools = new KafkaTools(root, bootstrapServers, out);
        List<Target> brokers = targets().stream().filter(t -> kafkaBrokers.contains(t.name())).toList();
        Map<String, ProcStat.Process> brokersBefore = new LinkedHashMap<>();
        brokers.stream().filter(t -> t.pid() != null)
                .forEach(t -> ProcStat.read(t.pid()).ifPresent(reading -> brokersBefore.put(t.name(), reading)));
        ProcStat.Process selfBefore = ProcStat.self();
        long start = System.nanoTime();
        KafkaTools.ProducerFigures figures = tools.producerPerf("bench.cpu-producer-perf", records, recordSize);
        double seconds = (System.nanoTime() - start) / 1e9;
        ProcStat.Process selfAfter = ProcStat.self();
        Map<String, @Nullable Double> brokerMs = new LinkedHashMap<>();
        Map<String, @Nullable Long> brokerTicks = new LinkedHashMap<>();
        for (Target broker : brokers) {
            ProcessFigures f = figures(broker.name(), broker.how(), brokersBefore.get(broker.name()),
                    broker.pid() == null ? null : ProcStat.read(broker.pid()).orElse(null), hz, figures.records(), seconds);
            brokerMs.put(broker.name(), f.msPerOrder());
            brokerTicks.put(broker.name(), f.ticks());
        }
        tools.deleteTopic("bench.cpu-producer-perf");
        double toolSeconds = (selfAfter.childTicks() - selfBefore.childTicks()) / (double) hz;
        ProducerPerfCpu result = new ProducerPerfCpu(figures.records(), figures.recordsPerSecond(), toolSeconds,
                perOrder(toolSeconds, figures.records()), "this JVM's waited-for children's ticks (/proc/self/stat fields 16, 17), "
                        + "the tool's JVM start included", brokerMs, brokerTicks, seconds);
        say("cpu: producer-perf-test: %,d records at %,.0f/s; the tool %.4f ms/record, the broker %s ms/record".formatted(
                result.records(), result.recordsPerSecond(), nz(result.toolMsPerRecord()), brokerText(brokerMs)));
        return result;
    }

    private void print(Window window) {
        StringBuilder text = new StringBuilder();
        text.append(("cpu: %s at %,.0f/s: %,d %s in %.1f s after %.0f s of warm-up%s (from %s; the driver: %,d accepted, "
                + "%,d not), intake p50 %.1f / p99 %.1f ms").formatted(window.what(), window.ratePerSecond(), window.orders(),
                        window.what().startsWith("GET") ? "requests" : "orders", window.windowSeconds(), window.warmUpSeconds(),
                        window.rateHeld() ? "" : " (the rate was not held: the window was cut or answered under 95%)",
                        window.ordersFrom(), window.driverAccepted(), window.driverNotAccepted(), window.intake().p50Millis(),
                        window.intake().p99Millis()));
        if (window.readersReceived() != null) {
            text.append(", read meanwhile: ").append(window.readersReceived());
        }
        for (ProcessFigures process : window.processes()) {
            text.append('\n').append(process.msPerOrder() == null
                    ? "  %-20s %s".formatted(process.name(), process.note() == null ? "no figure" : process.note())
                    : "  %-20s pid %-8d %8s ticks %8.2f s CPU %8.3f ms each %4.0f%% of a core%s".formatted(process.name(),
                            process.pid(), process.ticks() == null ? "-" : "%,d".formatted(process.ticks()), process.cpuSeconds(),
                            process.msPerOrder(), 100 * nz(process.shareOfOneCore()), window.jitTicks().containsKey(process.name())
                                    ? "   of which the JIT %,d ticks".formatted(window.jitTicks().get(process.name())) : ""));
        }
        MachineFigures machine = window.machine();
        text.append('\n').append("  %-20s %19s ticks %8.2f s CPU %8.3f ms each %4.0f%% of all cores".formatted("the machine",
                "%,d".formatted(machine.busyTicks()), machine.cpuSeconds(), nz(machine.msPerOrder()), 100 * machine.shareOfAllCores()));
        say(text.toString());
    }

    private List<String[]> rows(List<Double> rates, Map<String, Window> windows, List<GoalFigures> goals, Window menu,
            ProducerPerfCpu producer) {
        List<String[]> rows = new ArrayList<>();
        String first = key(rates.get(0));
        String second = key(rates.get(1));
        Window main = windows.get(first);
        rows.add(new String[] {"CPU per order, log act (ms; %s/s | %s/s)".formatted(first, second), "", "", "", ""});
        rows.add(new String[] {"  orders in the measured windows", "%s | %s".formatted(held(main), held(windows.get(second))),
                "GET /menu: " + held(menu), "", ""});
        for (GoalFigures goal : goals) {
            String reference = "";
            String ratio = "";
            Double figure = goal.msPerOrder().get(first);
            Double menuFigure = sum(menu, goal.members());
            if (goal.label().equals("all processes together") || goal.members().equals(List.of("order-service"))
                    || goal.members().equals(List.of(DRIVER))) {
                reference = "GET /menu: %.3f ms/request".formatted(nz(menuFigure));
                ratio = ratioText(figure, menuFigure);
            }
            if (goal.members().size() == 1 && kafkaBrokers.contains(goal.members().get(0))) {
                Double perRecord = producer.brokerMsPerRecord().get(goal.members().get(0));
                reference = "during producer-perf-test: %.4f ms/record".formatted(nz(perRecord));
                ratio = ratioText(figure, perRecord);
            }
            rows.add(new String[] {"  " + goal.label(), "%s | %s".formatted(ms(figure), ms(goal.msPerOrder().get(second))),
                    reference, ratio, "≤ %.2f: %s".formatted(goal.limitMillis(), goal.verdict())});
        }
        rows.add(new String[] {"  report replayer", "%s | %s".formatted(ms(main.msPerOrder("report-replayer")),
                ms(windows.get(second).msPerOrder("report-replayer"))), "", "", ""});
        rows.add(new String[] {"  of all the above: the JVMs' JIT compilers", "%s | %s".formatted(ms(jitPerOrder(main)),
                ms(jitPerOrder(windows.get(second)))), "GET /menu: %s ms/request".formatted(ms(jitPerOrder(menu))), "",
                "(a cost of their start)"});
        rows.add(new String[] {"  kafka-producer-perf-test itself", "", "%.4f ms/record (%,d records, %,.0f/s)".formatted(
                nz(producer.toolMsPerRecord()), producer.records(), producer.recordsPerSecond()), "", ""});
        rows.add(new String[] {"  the machine (/proc/stat: all it runs)", "%s | %s".formatted(ms(main.machine().msPerOrder()),
                ms(windows.get(second).machine().msPerOrder())), "GET /menu: %.3f ms/request".formatted(nz(menu.machine().msPerOrder())),
                ratioText(main.machine().msPerOrder(), menu.machine().msPerOrder()), ""});
        rows.add(new String[] {"  intake p50 / p99 in the windows", "%.1f / %.1f ms | %.1f / %.1f ms".formatted(
                main.intake().p50Millis(), main.intake().p99Millis(), windows.get(second).intake().p50Millis(),
                windows.get(second).intake().p99Millis()), "GET /menu: %.1f / %.1f ms".formatted(menu.intake().p50Millis(),
                        menu.intake().p99Millis()), "", ""});
        windows.values().stream().flatMap(w -> w.processes().stream()).filter(p -> p.pid() == null && p.note() != null)
                .map(p -> p.name() + ": " + p.note()).distinct()
                .forEach(note -> rows.add(new String[] {"  (" + note + ")", "", "", "", ""}));
        return rows;
    }

    /** What the JIT compilers of every JVM (the driver's included) took in the window, per order. */
    @Nullable Double jitPerOrder(Window window) {
        long ticks = window.jitTicks().values().stream().mapToLong(Long::longValue).sum();
        return perOrder(ticks / (double) hz, window.orders());
    }

    /** {@code 16,000 in 40 s}; {@code 2,908 in 14 s of 40 (not held)} when the stack did not keep up. */
    private static String held(Window window) {
        return "%,d in %.0f s%s".formatted(window.orders(), window.windowSeconds(), window.rateHeld() ? ""
                : " of %d (not held)".formatted(window.askedSeconds()));
    }

    private static String brokerText(Map<String, @Nullable Double> brokers) {
        return brokers.values().stream().map(v -> "%.4f".formatted(nz(v))).reduce((a, b) -> a + ", " + b).orElse("?");
    }

    private static String ms(@Nullable Double value) {
        return value == null ? "—" : "%.3f".formatted(value);
    }

    private static String ratioText(@Nullable Double value, @Nullable Double reference) {
        return value == null || reference == null || reference <= 0 ? "" : "%.1f×".formatted(value / reference);
    }

    private static double nz(@Nullable Double value) {
        return value == null ? 0 : value;
    }

    static String key(double rate) {
        return String.valueOf(Math.round(rate));
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}
