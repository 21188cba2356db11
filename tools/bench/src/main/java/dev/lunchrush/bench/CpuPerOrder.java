package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.bench.CpuFigures.Goal;
import dev.lunchrush.bench.CpuFigures.GoalFigures;
import dev.lunchrush.bench.CpuFigures.MachineFigures;
import dev.lunchrush.bench.CpuFigures.ProcessFigures;
import dev.lunchrush.bench.CpuFigures.Window;
import dev.lunchrush.bench.ProducerPerfReference.ProducerPerfCpu;
import dev.lunchrush.bench.StackProcesses.Target;
import dev.lunchrush.localstack.StackManifest;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.ReaderClient;
import dev.lunchrush.localstack.access.ReaderStats;

/**
 * {@code ./demo bench --section cpu}: the CPU an order costs each process of the stack of {@code ./demo up}, in the
 * log act at a steady 400/s and 200/s, as {@code /proc} counts it ({@code utime} + {@code stime} of every process
 * before and after a measured window, divided by the orders placed in it), beside the goals of the issue; and, in
 * the same run, what the references cost: the order service per {@code GET /menu} at the same rate, the Kafka broker
 * and {@code kafka-producer-perf-test} per record. It runs the windows and reads the counters; the processes are found
 * by {@link StackProcesses}, the figures worked out by {@link CpuFigures} and printed by {@link CpuTable}.
 */
final class CpuPerOrder {

    /** The section's key in the JSON. */
    static final String KEY = "cpu";
    /** The warm-up before a window goes on in steps of 10 s while the JVMs still compile, for at most two minutes. */
    static final Duration MOST_WARM_UP = Duration.ofSeconds(120);
    static final Duration WARM_UP_STEP = Duration.ofSeconds(10);

    /** The readings a window starts and ends with. */
    record Mark(long nanos, Map<String, ProcStat.Process> processes, Map<String, Long> compilerTicks, long driverCpuNanos,
            ProcStat.Machine machine, @Nullable Double placed, @Nullable Map<String, Long> readers) {
    }

    private final List<String> kafkaBrokers;
    private final OrderServiceClient orderService;
    private final ReaderClient kitchenScreen;
    private final ReaderClient dashboard;
    private final boolean smoke;
    private final PrintWriter out;
    private final long hz = ProcStat.clockTicksPerSecond();
    private final StackProcesses stackProcesses;
    private final ProducerPerfReference producerPerf;
    private final CpuTable table;

    CpuPerOrder(Path root, List<String> kafkaBrokers, String bootstrapServers, OrderServiceClient orderService,
            ReaderClient kitchenScreen, ReaderClient dashboard, boolean smoke, PrintWriter out) {
        this.kafkaBrokers = kafkaBrokers;
        this.orderService = orderService;
        this.kitchenScreen = kitchenScreen;
        this.dashboard = dashboard;
        this.smoke = smoke;
        this.out = out;
        this.stackProcesses = new StackProcesses(root, kafkaBrokers, bootstrapServers);
        this.producerPerf = new ProducerPerfReference(root, kafkaBrokers, bootstrapServers, stackProcesses, hz, out);
        this.table = new CpuTable(kafkaBrokers, hz);
    }

    /** The section of a run, on the run's stack and services. */
    CpuPerOrder(BenchRun run) {
        this(run.root(), run.stack().kafkaBrokers(), run.stack().bootstrapServers(), run.orderService(), run.kitchenScreen(),
                run.dashboard(), run.smoke(), run.out());
    }

    /** The goals of the issue, in ms of CPU per order at 400/s. */
    List<Goal> goals() {
        List<String> all = new ArrayList<>(StackManifest.get().lessonServices().stream().map(StackManifest.Service::name).toList());
        all.addAll(kafkaBrokers);
        all.addAll(List.of("rabbitmq", "prometheus", CpuFigures.DRIVER));
        List<Goal> goals = new ArrayList<>();
        goals.add(new Goal("all processes together", 1.0, all));
        goals.add(new Goal("order service", 0.30, List.of("order-service")));
        for (String broker : kafkaBrokers) {
            goals.add(new Goal(kafkaBrokers.size() == 1 ? "Kafka broker" : "Kafka broker " + broker, 0.10, List.of(broker)));
        }
        goals.add(new Goal("RabbitMQ", 0.10, List.of("rabbitmq")));
        goals.add(new Goal("kitchen screen", 0.10, List.of("kitchen-screen")));
        goals.add(new Goal("analytics dashboard", 0.10, List.of("analytics-dashboard")));
        goals.add(new Goal("load generator (the driver)", 0.10, List.of(CpuFigures.DRIVER)));
        goals.add(new Goal("backlog monitor + Prometheus", 0.05, List.of("backlog-monitor", "prometheus")));
        return goals;
    }

    /**
     * Runs the section on a stack whose readers have worked off their backlog: log act, the dashboard's capacity
     * lifted for the section (at its configured 250/s it would read only part of a 400/s window and look cheaper per
     * order), a warm-up and a measured window at each rate, then the references.
     */
    Part run(Supplier<byte[]> orderBodies, int recordSize) {
        orderService.switchAct("log");
        List<Double> rates = smoke ? List.of(50.0, 25.0) : List.of(400.0, 200.0);
        Duration warmUp = smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(20);
        Duration measured = smoke ? Duration.ofSeconds(4) : Duration.ofSeconds(40);
        double previousCapacity = dashboard.stats().capacityPerSecond();
        dashboard.setCapacity(1_000_000);
        Map<String, Window> windows = new LinkedHashMap<>();
        Window menu;
        ProducerPerfCpu producer;
        try {
            URI orders = orderService.orders();
            for (double rate : rates) {
                windows.put(CpuFigures.key(rate), measure("cpu: POST /orders at %,.0f/s".formatted(rate), "POST /orders, log act", orders,
                        orderBodies, rate, warmUp, measured));
            }
            // the order service's cheapest endpoint at the same rate, the same driver (GETs): what a request costs it
            menu = measure("cpu: GET /menu at %,.0f/s".formatted(rates.get(0)), "GET /menu (reference)",
                    orderService.menu(), null, rates.get(0), smoke ? warmUp : Duration.ofSeconds(10),
                    smoke ? measured : Duration.ofSeconds(30));
        }
        finally {
            dashboard.setCapacity(Math.round(previousCapacity));
        }
        producer = producerPerf.run(smoke ? 2_000 : 500_000, recordSize);

        List<GoalFigures> goals = CpuFigures.judge(goals(), windows, rates.get(0), smoke);
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("method", "utime+stime of each process (/proc/PID/stat fields 14, 15) over the measured window, "
                + "divided by the clock ticks a second and by the orders placed in the window (the order service's "
                + "orders_placed_total, summed over its labels; the driver's accepted count when it cannot be read); the driver "
                + "is this JVM (OperatingSystemMXBean.getProcessCpuTime); the machine is /proc/stat's first line (user + nice + "
                + "system + irq + softirq). Log act; the dashboard's capacity lifted during the section so that it reads every "
                + "order of a window. Goals judged at " + CpuFigures.key(rates.get(0)) + "/s" + (smoke ? " (smoke: not judged)" : ""));
        section.put("clockTicksPerSecond", hz);
        section.put("cores", Runtime.getRuntime().availableProcessors());
        section.put("rates", windows);
        section.put("goals", goals);
        Map<String, Object> references = new LinkedHashMap<>();
        references.put("getMenu", menu);
        references.put("producerPerf", producer);
        section.put("references", references);
        return new Part(KEY, section, table.rows(rates, windows, goals, menu, producer));
    }

    /** A warm-up, then a window measured from {@code /proc}; the figures printed as they come. */
    private Window measure(String name, String what, URI uri, @Nullable Supplier<byte[]> bodies, double rate, Duration warmUp,
            Duration window) {
        List<Target> targets = stackProcesses.targets();
        AtomicBoolean first = new AtomicBoolean(true);
        // the scrapes of counters cost the services a little CPU: before the window's /proc readings at its start,
        // after them at its end; nothing is sent at either moment, so the counters do not move meanwhile
        RateSearch.WarmUp warming = smoke ? RateSearch.WarmUp.fixed(warmUp) : new RateSearch.WarmUp(warmUp, MOST_WARM_UP,
                WARM_UP_STEP, new JitSettling(() -> StackProcesses.compilerTicks(targets).values().stream().mapToLong(Long::longValue).sum(),
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
                    : CpuFigures.figures(target.name(), target.how(), before.processes().get(target.name()),
                            after.processes().get(target.name()), hz, orders, seconds));
        }
        processes.add(CpuFigures.driverFigures(after.driverCpuNanos() - before.driverCpuNanos(), orders, seconds));
        ProcStat.Machine machine = after.machine().minus(before.machine());
        MachineFigures machineFigures = new MachineFigures(machine.busy(), machine.total(), machine.busy() / (double) hz,
                CpuFigures.perOrder(machine.busy() / (double) hz, orders), machine.total() == 0 ? 0 : machine.busy() / (double) machine.total());
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
        say(table.text(result));
        return result;
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
        Map<String, Long> compilers = StackProcesses.compilerTicks(targets);
        long driver = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        return new Mark(nanos, processes, compilers, driver, ProcStat.machine(), placed, readers);
    }

    /** The order service's {@code orders_placed_total}, summed over its labels. */
    private Optional<Double> placed() {
        return orderService.tryMetrics(Duration.ofSeconds(10)).map(CpuPerOrder::placedTotal);
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
        for (ReaderClient reader : List.of(kitchenScreen, dashboard)) {
            Optional<Long> total = reader.tryStats(Duration.ofSeconds(5)).map(ReaderStats::total);
            if (total.isEmpty()) {
                return null;
            }
            totals.put(reader.name(), total.get());
        }
        return totals;
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}