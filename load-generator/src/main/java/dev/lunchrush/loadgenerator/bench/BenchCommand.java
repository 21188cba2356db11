package dev.lunchrush.loadgenerator.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.SampleOrders;
import dev.lunchrush.events.Topology;
import dev.lunchrush.loadgenerator.AdminPassword;
import dev.lunchrush.loadgenerator.Demo;
import dev.lunchrush.loadgenerator.DemoException;
import dev.lunchrush.loadgenerator.Pause;
import dev.lunchrush.loadgenerator.Endpoints;
import dev.lunchrush.loadgenerator.RepoRoot;
import dev.lunchrush.loadgenerator.ServiceClient;
import dev.lunchrush.loadgenerator.launcher.StackControl;

/** {@code ./demo bench}: Lunch Rush against the brokers' own limits, measured side by side in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks against the stack of ./demo up, each beside its reference measured in the same run: "
                + "the CPU an order costs each process of the stack at 400/s and 200/s (from /proc) against the goals, beside "
                + "what a GET /menu costs the order service and a record the Kafka broker under kafka-producer-perf-test; "
                + "intake (POST /orders into Kafka, acks=all) against the same driver on GET /menu (the HTTP ceiling) and "
                + "kafka-producer-perf-test (the broker's); act 1's intake against a plain amqp-client publisher; the "
                + "latency from order to kitchen screen at 400/s and 4,000/s; the order service's heap after GC "
                + "through an overload; a replay of a day of 1,000,000 orders against kafka-consumer-perf-test.",
            "Prints a table, writes bench/bench-<time>.json and bench/latest.json. --smoke: tiny sizes, a few "
                + "seconds each, to check that it runs. Switches the act and stops the two readers during the replay "
                + "section (they catch up afterwards): run it on a stack for testing."})
public class BenchCommand implements Callable<Integer> {

    enum Section {
        CPU, INTAKE, RABBITMQ, E2E, MEMORY, REPLAY
    }

    /** The search's steps: fine where a small machine ends, coarse above. */
    static final List<Double> RATES = List.of(50.0, 100.0, 150.0, 200.0, 300.0, 400.0, 600.0, 800.0, 1000.0, 1500.0,
            2000.0, 3000.0, 4000.0, 6000.0, 8000.0, 10000.0);
    static final List<Double> SMOKE_RATES = List.of(50.0, 100.0);

    /** How long the end-to-end section waits for the kitchen screen to count the orders a step was answered for. */
    static final Duration E2E_ARRIVAL_BOUND = Duration.ofMinutes(2);

    @ParentCommand
    private Demo demo;

    @Spec
    private CommandSpec spec;

    @Option(names = "--smoke", description = "tiny sizes and short steps, no goals: that the benchmark runs")
    private boolean smoke;

    @Option(names = "--section", split = ",", paramLabel = "NAME",
            description = "only these: cpu, intake, rabbitmq, e2e, memory, replay (default: all)",
            converter = SectionConverter.class)
    private List<Section> sections = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench", description = "where the JSON goes (default: ${DEFAULT-VALUE})")
    private Path outDir;

    @Option(names = "--replay-orders", paramLabel = "N", description = "orders in the replayed day (default: 1000000; --smoke 5000)")
    private Long replayOrders;

    private PrintWriter out;
    private ServiceClient orderService;
    private ServiceClient kitchenScreen;
    private ServiceClient dashboard;
    private ServiceClient replayer;
    private Path root;
    private double bestIntakeRate;

    @Override
    public Integer call() {
        if (replayOrders != null && (replayOrders < 1000 || replayOrders > 20_000_000)) {
            throw DemoException.badInput("--replay-orders must be between 1000 and 20000000, not " + replayOrders);
        }
        out = spec.commandLine().getOut();
        root = RepoRoot.find();
        Endpoints endpoints = demo.endpoints();
        Supplier<String> password = () -> AdminPassword.require(root);
        orderService = new ServiceClient("order-service", endpoints.orderService(), password);
        kitchenScreen = new ServiceClient("kitchen-screen", endpoints.kitchenScreen(), password);
        dashboard = new ServiceClient("analytics-dashboard", endpoints.analyticsDashboard(), password);
        replayer = new ServiceClient("report-replayer", endpoints.reportReplayer(), password);
        StackControl stack = StackControl.asStarted(root);
        Set<Section> chosen = sections.isEmpty() ? EnumSet.allOf(Section.class) : EnumSet.copyOf(sections);

        Menu menu = ServiceClient.JSON.treeToValue(orderService.get("/menu"), Menu.class);
        List<byte[]> bodies = new ArrayList<>();
        SampleOrders samples = new SampleOrders(menu, new Random(20261129));
        double eventBytes = 0;
        for (int i = 0; i < 5000; i++) {
            OrderRequest request = samples.next();
            bodies.add(ServiceClient.JSON.writeValueAsBytes(request));
            eventBytes += OrderEventCodec.encode(new OrderEvent("3f1c2a9e-5b7d-4e0f-9a1b-2c3d4e5f6a7b", Instant.now(),
                    request.kitchenId(), request.customerId(), request.items(), request.deliveryAddress(), request.notes(),
                    OrderEvent.ORIGIN_LIVE, "5b7d4e0f-1c2a-4e0f-9a1b-2c3d4e5f6a7b", 123456)).length;
        }
        int recordSize = (int) Math.round(eventBytes / bodies.size());
        AtomicLong next = new AtomicLong();
        Supplier<byte[]> orderBodies = () -> bodies.get((int) (next.getAndIncrement() % bodies.size()));

        Map<String, Object> results = new LinkedHashMap<>();
        results.put("startedAt", Instant.now().toString());
        results.put("smoke", smoke);
        results.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "java",
                System.getProperty("java.version"), "kafkaBrokers", stack.bootstrapServers()));
        results.put("eventBytes", recordSize);
        String previousAct = ServiceClient.text(orderService.get("/api/act"), "act");
        List<String[]> table = new ArrayList<>();
        Instant started = Instant.now();
        try {
            if (chosen.contains(Section.CPU)) {
                quiesce();
                table.addAll(new CpuPerOrder(root, stack.kafkaBrokers(), stack.bootstrapServers(), orderService, kitchenScreen,
                        dashboard, smoke, out).run(orderBodies, recordSize, results));
            }
            if (chosen.contains(Section.INTAKE)) {
                quiesce();
                intake(stack, orderBodies, recordSize, results, table);
            }
            if (chosen.contains(Section.RABBITMQ)) {
                quiesce();
                rabbitmq(orderBodies, bodies.get(0).length, recordSize, results, table);
            }
            if (chosen.contains(Section.E2E)) {
                quiesce();
                endToEnd(orderBodies, results, table);
            }
            if (chosen.contains(Section.MEMORY)) {
                quiesce();
                memory(orderBodies, results, table);
            }
            if (chosen.contains(Section.REPLAY)) {
                replay(stack, results, table);
            }
        }
        finally {
            try {
                orderService.put("/admin/act", Map.of("act", previousAct), true);
            }
            catch (DemoException ex) {
                out.println("could not put the stack back in act " + previousAct + ": " + ex.getMessage());
            }
        }
        results.put("seconds", Duration.between(started, Instant.now()).toSeconds());
        out.println();
        String printed = BenchTable.format(table);
        out.print(printed);
        results.put("table", printed);
        write(results);
        out.flush();
        return 0;
    }

    private void intake(StackControl stack, Supplier<byte[]> bodies, int recordSize, Map<String, Object> results,
            List<String[]> table) {
        act("log");
        List<Double> rates = smoke ? SMOKE_RATES : RATES;
        Duration step = smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(10);
        Duration warmUp = smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(30);
        RateSearch.Outcome ceiling = RateSearch.run("HTTP ceiling (GET /menu)", Endpoints.resolve(orderService.base(), "/menu"),
                null, rates, step, warmUp, out);
        RateSearch.Outcome intake = RateSearch.run("intake (POST /orders, log act)", Endpoints.resolve(orderService.base(), "/orders"),
                bodies, rates, step, warmUp, out);
        say("Kafka's producer-perf-test: acks=all, idempotent, " + recordSize + " B records…");
        KafkaTools tools = new KafkaTools(root, stack.bootstrapServers(), out);
        KafkaTools.ProducerFigures producer = tools.producerPerf("bench.producer-perf", smoke ? 2_000 : 500_000, recordSize);
        tools.deleteTopic("bench.producer-perf");
        say("producer-perf-test: %,.0f records/s, p50 %.0f ms, p99 %.0f ms".formatted(producer.recordsPerSecond(),
                producer.p50Millis(), producer.p99Millis()));
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("intake", intake);
        section.put("httpCeiling", ceiling);
        section.put("producerPerf", producer);
        double ratioHttp = ratio(intake.bestRate(), ceiling.bestRate());
        section.put("intakeOverHttpCeiling", ratioHttp);
        section.put("intakeOverProducerPerf", ratio(intake.bestRate(), producer.recordsPerSecond()));
        section.put("goal", "intake >= 0.8 x HTTP ceiling");
        results.put("intake", section);
        bestIntakeRate = intake.bestRate();
        table.add(new String[] {"intake: POST /orders → Kafka (acks=all)", rateText(intake), "GET /menu, same driver: "
                + rateText(ceiling), fixed(ratioHttp), "≥ 0.80"});
        table.add(new String[] {"", "", "producer-perf-test: %,.0f/s, p99 %.0f ms".formatted(producer.recordsPerSecond(),
                producer.p99Millis()), fixed(ratio(intake.bestRate(), producer.recordsPerSecond())), ""});
    }

    private void rabbitmq(Supplier<byte[]> bodies, int bodyBytes, int recordSize, Map<String, Object> results, List<String[]> table) {
        act("shared-queue");
        List<Double> rates = smoke ? SMOKE_RATES : RATES;
        RateSearch.Outcome intake = RateSearch.run("act 1 intake (POST /orders → RabbitMQ)",
                Endpoints.resolve(orderService.base(), "/orders"), bodies, rates,
                smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(10), smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(10), out);
        say("plain amqp-client publisher: persistent, confirms, window 1000…");
        byte[] message = new byte[recordSize];
        Arrays.fill(message, (byte) 'x');
        RabbitReference.Figures reference = RabbitReference.publish("127.0.0.1", 5672,
                System.getenv().getOrDefault("SPRING_RABBITMQ_USERNAME", "guest"),
                System.getenv().getOrDefault("SPRING_RABBITMQ_PASSWORD", "guest"), "bench.reference",
                smoke ? 1_000 : 100_000, message, 1000);
        say("amqp-client publisher: %,.0f messages/s".formatted(reference.messagesPerSecond()));
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("intake", intake);
        section.put("referencePublisher", reference);
        section.put("intakeOverReference", ratio(intake.bestRate(), reference.messagesPerSecond()));
        results.put("rabbitmq", section);
        table.add(new String[] {"act 1: POST /orders → RabbitMQ (confirms)", rateText(intake),
                "amqp-client publisher, window 1000: %,.0f/s".formatted(reference.messagesPerSecond()),
                fixed(ratio(intake.bestRate(), reference.messagesPerSecond())), ""});
    }

    private void endToEnd(Supplier<byte[]> bodies, Map<String, Object> results, List<String[]> table) {
        act("log");
        Map<String, Object> section = new LinkedHashMap<>();
        for (double rate : smoke ? List.of(40.0, 100.0) : List.of(400.0, 4000.0)) {
            Duration duration = smoke ? Duration.ofSeconds(3) : Duration.ofSeconds(rate > 1000 ? 10 : 30);
            say("end to end at %,.0f/s for %d s…".formatted(rate, duration.toSeconds()));
            // the histogram is read once the warm-up's orders are all on the screen, and again once the window's are
            ScreenLatencyWindow window = new ScreenLatencyWindow(() -> LatencyBuckets.scrape(kitchenScreen), E2E_ARRIVAL_BOUND);
            RateSearch.Measured<LatencyBuckets> run = RateSearch.warmThenMeasure("placed → kitchen screen at %,.0f/s"
                    .formatted(rate), Endpoints.resolve(orderService.base(), "/orders"), bodies, rate, Duration.ofSeconds(1),
                    duration, window, out);
            LatencyBuckets delta = window.measured();
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("ratePerSecond", rate);
            figures.put("orders", delta.count());
            figures.put("p50Millis", delta.percentileMillis(50));
            figures.put("p99Millis", delta.percentileMillis(99));
            figures.put("intakeStep", run.step());
            section.put(String.valueOf((long) rate), figures);
            table.add(new String[] {"placed → kitchen screen at %,.0f/s".formatted(rate),
                    "p50 ≤ %.0f ms, p99 ≤ %.0f ms (%,d orders)".formatted(delta.percentileMillis(50), delta.percentileMillis(99),
                            delta.count()), "", "", ""});
        }
        results.put("endToEnd", section);
    }

    private void memory(Supplier<byte[]> bodies, Map<String, Object> results, List<String[]> table) {
        act("log");
        // the intake's own sustained rate (measured above, else a modest one), against a job four times slower:
        // the overload is the readers', the log holds the backlog, the order service's heap should not care
        double rate = smoke ? 100 : bestIntakeRate > 0 ? bestIntakeRate : 200;
        Duration duration = smoke ? Duration.ofSeconds(5) : Duration.ofMinutes(3);
        double previousCapacity = dashboard.get("/api/stats").path("capacityPerSecond").asDouble();
        double capacity = Math.max(1, Math.floor(rate / 4));
        dashboard.put("/admin/capacity", Map.of("eventsPerSecond", Math.round(capacity)), true);
        say("memory: %,.0f orders/s for %d s against an analytics job set to %,.0f/s (the log act's overload)…"
                .formatted(rate, duration.toSeconds(), capacity));
        List<double[]> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread sampler = new Thread(() -> {
            long start = System.nanoTime();
            while (!Thread.currentThread().isInterrupted()) {
                orderService.tryGet("/api/stats", Duration.ofSeconds(2)).ifPresent(stats -> samples.add(new double[] {
                        (System.nanoTime() - start) / 1e9, stats.path("heap").path("usedAfterGcBytes").asDouble() / 1e6}));
                try {
                    Thread.sleep(2000);
                }
                catch (InterruptedException ex) {
                    return;
                }
            }
        }, "bench-heap");
        sampler.setDaemon(true);
        sampler.start();
        RateSearch.Outcome run;
        try {
            run = RateSearch.run("overload", Endpoints.resolve(orderService.base(), "/orders"), bodies, List.of(rate),
                    duration, Duration.ofSeconds(1), out);
        }
        finally {
            sampler.interrupt();
            dashboard.put("/admin/capacity", Map.of("eventsPerSecond", Math.round(previousCapacity)), true);
        }
        HeapTrend trend = HeapTrend.of(samples);
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("ratePerSecond", rate);
        section.put("dashboardCapacityPerSecond", capacity);
        section.put("seconds", duration.toSeconds());
        section.put("heapAfterGc", trend);
        section.put("samples", samples);
        section.put("intakeStep", run.steps().isEmpty() ? null : run.steps().get(0));
        results.put("memory", section);
        table.add(new String[] {"order service heap after GC, %,.0f/s vs job %,.0f/s, %d s".formatted(rate, capacity,
                duration.toSeconds()), "%.1f → %.1f MB (max %.1f), %+.2f MB/min".formatted(trend.firstMb(), trend.lastMb(),
                        trend.maxMb(), trend.slopeMbPerMinute()), "", "", "flat"});
    }

    private void replay(StackControl stack, Map<String, Object> results, List<String[]> table) {
        act("log");
        long orders = replayOrders != null ? replayOrders : smoke ? 5_000 : 1_000_000;
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(1);
        say("replay: the kitchen screen and the dashboard stop while a day of %,d orders is written and read (they catch up after)"
                .formatted(orders));
        say("kitchen-screen: " + stack.stop("kitchen-screen") + "; analytics-dashboard: " + stack.stop("analytics-dashboard"));
        try {
            StringWriter backfillOut = new StringWriter();
            CommandLine backfill = Demo.commandLine();
            backfill.setOut(new PrintWriter(backfillOut, true));
            backfill.setErr(out);
            int exit = backfill.execute("--order-service", orderService.base().toString(), "backfill", "--days", "1",
                    "--orders-per-day", String.valueOf(orders), "--zone", "UTC");
            if (exit != 0) {
                throw new DemoException("the backfill failed (exit " + exit + "): " + backfillOut);
            }
            backfillOut.toString().lines().filter(line -> line.startsWith("Imported")).forEach(this::say);
            // the replayer is a service that replays day after day: its first replay after a start also warms its
            // JIT, so the first is reported beside and the second, on the same records, is the measured one
            JsonNode first = replayDay(day, "first replay (warm-up)");
            JsonNode status = replayDay(day, "replay");
            long read = status.path("read").asLong();
            double replayRate = status.path("ratePerSecond").asDouble();
            double firstRate = first.path("ratePerSecond").asDouble();
            say("Kafka's consumer-perf-test reading %,d records of %s…".formatted(read, Topology.ORDERS_TOPIC));
            KafkaTools.ConsumerFigures consumer = new KafkaTools(root, stack.bootstrapServers(), out)
                    .consumerPerf(Topology.ORDERS_TOPIC, read);
            say("consumer-perf-test: %,.0f records/s (fetch %,.0f/s)".formatted(consumer.recordsPerSecond(),
                    consumer.fetchRecordsPerSecond()));
            Map<String, Object> section = new LinkedHashMap<>();
            section.put("day", day.toString());
            section.put("records", read);
            section.put("ordersFound", status.path("ordersFound").asLong());
            section.put("elapsedMillis", status.path("elapsedMillis").asLong());
            section.put("replayPerSecond", replayRate);
            section.put("firstReplayPerSecond", firstRate);
            section.put("firstReplayElapsedMillis", first.path("elapsedMillis").asLong());
            section.put("consumerPerf", consumer);
            section.put("replayOverConsumerPerf", ratio(replayRate, consumer.fetchRecordsPerSecond()));
            section.put("goal", "replay >= 0.8 x consumer-perf-test");
            results.put("replay", section);
            table.add(new String[] {"replay of a day (%,d records, decode + aggregate)".formatted(read),
                    "%,.0f/s (first replay %,.0f/s)".formatted(replayRate, firstRate),
                    "consumer-perf-test: %,.0f/s".formatted(consumer.fetchRecordsPerSecond()),
                    fixed(ratio(replayRate, consumer.fetchRecordsPerSecond())), "≥ 0.80"});
        }
        finally {
            say("kitchen-screen: " + stack.restart("kitchen-screen", Duration.ofMinutes(4)) + "; analytics-dashboard: "
                    + stack.restart("analytics-dashboard", Duration.ofMinutes(4)));
        }
    }

    /** Replays one day on the replayer and waits for it (at most 10 minutes); fails unless it is done. */
    private JsonNode replayDay(LocalDate day, String what) {
        JsonNode status = replayer.post("/admin/replays", Map.of("date", day.toString(), "zone", "UTC"), true);
        String id = ServiceClient.text(status, "id");
        Instant deadline = Instant.now().plus(Duration.ofMinutes(10));
        while (!List.of("DONE", "FAILED").contains(ServiceClient.text(status, "state"))) {
            if (Instant.now().isAfter(deadline)) {
                throw new DemoException("the %s of %s did not finish within 10 minutes".formatted(what, day));
            }
            Pause.sleep(Duration.ofMillis(500));
            status = replayer.get("/api/replays/" + id);
        }
        if (!"DONE".equals(ServiceClient.text(status, "state"))) {
            throw new DemoException("the %s of %s failed: %s".formatted(what, day, ServiceClient.text(status, "error")));
        }
        say("%s of %s: %,d records in %.1f s, %,.0f/s".formatted(what, day, status.path("read").asLong(),
                status.path("elapsedMillis").asLong() / 1000.0, status.path("ratePerSecond").asDouble()));
        return status;
    }

    /**
     * Waits until the readers have read everything (their counters still for 6 s, at most 10 minutes), with the
     * dashboard's capacity lifted meanwhile: a backlog being worked off would take the measured sections' CPU.
     */
    private void quiesce() {
        double capacity = dashboard.get("/api/stats").path("capacityPerSecond").asDouble();
        dashboard.put("/admin/capacity", Map.of("eventsPerSecond", 1_000_000), true);
        try {
            Instant deadline = Instant.now().plus(Duration.ofMinutes(10));
            Instant still = Instant.now();
            String last = "";
            Instant nextNote = Instant.now();
            while (true) {
                String now = kitchenScreen.get("/api/stats").path("received").toString()
                        + dashboard.get("/api/stats").path("received");
                if (!now.equals(last)) {
                    still = Instant.now();
                    last = now;
                }
                if (Duration.between(still, Instant.now()).toSeconds() >= 6) {
                    return;
                }
                if (Instant.now().isAfter(deadline)) {
                    say("the readers were still reading after 10 minutes; measuring anyway");
                    return;
                }
                if (Instant.now().isAfter(nextNote)) {
                    say("waiting for the readers to finish their backlog: " + now);
                    nextNote = Instant.now().plusSeconds(15);
                }
                Pause.sleep(Duration.ofSeconds(1));
            }
        }
        finally {
            dashboard.put("/admin/capacity", Map.of("eventsPerSecond", Math.round(capacity)), true);
        }
    }

    private void act(String act) {
        orderService.put("/admin/act", Map.of("act", act), true);
    }

    private void write(Map<String, Object> results) {
        try {
            Files.createDirectories(outDir);
            String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
            Path file = outDir.resolve("bench-" + stamp + (smoke ? "-smoke" : "") + ".json");
            ServiceClient.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), results);
            Files.copy(file, outDir.resolve(smoke ? "latest-smoke.json" : "latest.json"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            say("results: " + file);
        }
        catch (IOException | RuntimeException ex) {
            throw new DemoException("could not write the results to " + outDir + ": " + ex.getMessage());
        }
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }

    private static double ratio(double value, double reference) {
        return reference <= 0 ? 0 : value / reference;
    }

    private static String fixed(double ratio) {
        return String.format(ratio < 0.1 ? "%.3f" : "%.2f", ratio);
    }

    private static String rateText(RateSearch.Outcome outcome) {
        RateSearch.Step best = outcome.best();
        return best == null ? "no step held" : "%,.0f/s, p50 %.1f / p99 %.1f / p99.9 %.1f ms".formatted(best.targetPerSecond(),
                best.p50Millis(), best.p99Millis(), best.p999Millis());
    }

    static final class SectionConverter implements CommandLine.ITypeConverter<Section> {
        @Override
        public Section convert(String value) {
            try {
                return Section.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
            }
            catch (IllegalArgumentException ex) {
                throw new CommandLine.TypeConversionException("no section '" + value + "'; the sections are: cpu, intake, "
                        + "rabbitmq, e2e, memory, replay");
            }
        }
    }
}
