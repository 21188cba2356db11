package dev.lunchrush.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.localstack.StackControl;
import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.OrderServiceClient;
import dev.lunchrush.localstack.access.ReaderClient;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * {@code ./demo bench}: runs the chosen sections against the stack of {@code ./demo up}, each after the readers
 * have worked off any backlog (the replay stops them anyway), puts the stack back in the act it found, then prints
 * the table and writes the JSON ({@code bench-<time>.json} and {@code latest.json}, {@code -smoke} for a smoke run).
 */
public final class Bench {

    /**
     * What to run.
     *
     * @param smoke tiny sizes and short steps, no goals judged: that the benchmark runs
     * @param sections the sections to run (in their own order, whatever the order here)
     * @param outDir where the JSON goes
     * @param replayOrders the orders of the replayed day; null for the default (1,000,000, a smoke run 5,000)
     * @param scaleOrders the orders of the scale section's day; null for the default (5,000,000, a smoke run 5,000)
     */
    public record Settings(boolean smoke, Set<Section> sections, Path outDir, @Nullable Long replayOrders,
            @Nullable Long scaleOrders) {

        long dayOfOrders() {
            return replayOrders != null ? replayOrders : smoke ? 5_000 : 1_000_000;
        }

        long scaleDay() {
            return scaleOrders != null ? scaleOrders : smoke ? ScaleSection.SMOKE_ORDERS : ScaleSection.DEFAULT_ORDERS;
        }
    }

    private static final Duration QUIET = Duration.ofSeconds(6);
    private static final Duration QUIESCE_LIMIT = Duration.ofMinutes(10);

    private final Settings settings;
    private final Path root;
    private final Endpoints endpoints;
    private final PrintWriter out;

    public Bench(Settings settings, Path root, Endpoints endpoints, PrintWriter out) {
        this.settings = settings;
        this.root = root;
        this.endpoints = endpoints;
        this.out = out;
    }

    /** Runs the benchmark; a {@link DemoException} when a section cannot be measured or the JSON not written. */
    public void run() {
        Supplier<String> password = () -> AdminPassword.require(root);
        OrderServiceClient orderService = new OrderServiceClient(endpoints.orderService(), password);
        BenchRun run = new BenchRun(root, StackControl.asStarted(root), orderService,
                new ReaderClient("kitchen-screen", endpoints.kitchenScreen(), password),
                new ReaderClient("analytics-dashboard", endpoints.analyticsDashboard(), password),
                new ServiceClient("report-replayer", endpoints.reportReplayer(), password), settings.smoke(), out);
        SampleBodies samples = SampleBodies.of(ServiceClient.JSON.treeToValue(orderService.http().get("/menu"), Menu.class));

        Map<String, Object> results = new LinkedHashMap<>();
        results.put("startedAt", Instant.now().toString());
        results.put("smoke", settings.smoke());
        results.put("machine", Map.of("cores", Runtime.getRuntime().availableProcessors(), "java",
                System.getProperty("java.version"), "kafkaBrokers", run.stack().bootstrapServers()));
        results.put("eventBytes", samples.recordSize());
        String previousAct = orderService.act().act();
        List<String[]> table = new ArrayList<>();
        Instant started = Instant.now();
        try {
            for (Part part : sections(run, samples)) {
                results.put(part.key(), part.figures());
                table.addAll(part.rows());
            }
        }
        finally {
            try {
                orderService.switchAct(previousAct);
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
        write(run, results);
        out.flush();
    }

    /** The chosen sections run one after the other, in their order, each on a quiet stack; their parts. */
    private List<Part> sections(BenchRun run, SampleBodies samples) {
        Supplier<byte[]> bodies = samples.inTurn();
        int recordSize = samples.recordSize();
        IntakeSection intake = new IntakeSection(run);
        List<Part> parts = new ArrayList<>();
        for (Section section : Section.values()) {
            if (!settings.sections().contains(section)) {
                continue;
            }
            if (section != Section.REPLAY) {
                quiesce(run);
            }
            parts.add(switch (section) {
                case CPU -> new CpuPerOrder(run).run(bodies, recordSize);
                case INTAKE -> intake.run(bodies, recordSize);
                case RABBITMQ -> new RabbitSection(run).run(bodies, recordSize);
                case E2E -> new EndToEndSection(run).run(bodies);
                case MEMORY -> new MemorySection(run, intake.bestRate()).run(bodies);
                case REPLAY -> new ReplaySection(run, settings.dayOfOrders()).run();
                case SCALE -> new ScaleSection(run, settings.scaleDay()).run(recordSize);
            });
        }
        return parts;
    }

    /**
     * Waits until the readers have read everything (their counters still for 6 s, at most 10 minutes), with the
     * dashboard's capacity lifted meanwhile: a backlog being worked off would take the measured sections' CPU.
     */
    static void quiesce(BenchRun run) {
        double capacity = run.dashboard().stats().capacityPerSecond();
        run.dashboard().setCapacity(1_000_000);
        try {
            Instant deadline = Instant.now().plus(QUIESCE_LIMIT);
            Instant still = Instant.now();
            String last = "";
            Instant nextNote = Instant.now();
            while (true) {
                String now = run.kitchenScreen().stats().received().toString() + run.dashboard().stats().received();
                if (!now.equals(last)) {
                    still = Instant.now();
                    last = now;
                }
                if (Duration.between(still, Instant.now()).compareTo(QUIET) >= 0) {
                    return;
                }
                if (Instant.now().isAfter(deadline)) {
                    run.say("the readers were still reading after 10 minutes; measuring anyway");
                    return;
                }
                if (Instant.now().isAfter(nextNote)) {
                    run.say("waiting for the readers to finish their backlog: " + now);
                    nextNote = Instant.now().plusSeconds(15);
                }
                Pause.sleep(Duration.ofSeconds(1));
            }
        }
        finally {
            run.dashboard().setCapacity(Math.round(capacity));
        }
    }

    private void write(BenchRun run, Map<String, Object> results) {
        Path outDir = settings.outDir();
        try {
            Files.createDirectories(outDir);
            String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
            Path file = outDir.resolve("bench-" + stamp + (settings.smoke() ? "-smoke" : "") + ".json");
            ServiceClient.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), results);
            Files.copy(file, outDir.resolve(settings.smoke() ? "latest-smoke.json" : "latest.json"),
                    StandardCopyOption.REPLACE_EXISTING);
            run.say("results: " + file);
        }
        catch (IOException | RuntimeException ex) {
            throw new DemoException("could not write the results to " + outDir + ": " + ex.getMessage());
        }
    }
}
