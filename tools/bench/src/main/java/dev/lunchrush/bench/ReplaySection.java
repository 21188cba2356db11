package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Topology;
import dev.lunchrush.load.backfill.Backfill;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.Pause;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * {@code ./demo bench --section replay}: a day of orders (yesterday, UTC; always the same orders, written once)
 * backfilled into the log, then replayed by the report replayer (decode and aggregate), beside
 * {@code kafka-consumer-perf-test} reading as many records of the topic. The kitchen screen and the dashboard are stopped meanwhile, so the day is the replayer's alone; they
 * are started again afterwards and catch up.
 */
final class ReplaySection {

    static final String KEY = "replay";
    private static final Duration REPLAY_LIMIT = Duration.ofMinutes(10);
    private static final Duration READER_RESTART = Duration.ofMinutes(4);
    /**
     * The day's orders are always the same ones: a second run on the same day sends the same batches under the same
     * keys, which the order service answers without writing, so the replayed day stays at {@code orders} instead of
     * growing by as many at every run (with a new seed each time it held 5.85 million after a day of runs).
     */
    static final long SEED = 20_261_202L;

    private final BenchRun run;
    private final long orders;

    /** {@code orders}: the orders of the replayed day. */
    ReplaySection(BenchRun run, long orders) {
        this.run = run;
        this.orders = orders;
    }

    Part run() {
        run.act("log");
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(1);
        run.say("replay: the kitchen screen and the dashboard stop while a day of %,d orders is written and read (they catch up after)"
                .formatted(orders));
        run.say("kitchen-screen: " + run.stack().stop("kitchen-screen") + "; analytics-dashboard: "
                + run.stack().stop("analytics-dashboard"));
        try {
            backfill(run, orders, SEED, false);
            // the replayer is a service that replays day after day: its first replay after a start also warms its
            // JIT, so the first is reported beside and the second, on the same records, is the measured one
            JsonNode first = replayDay(run, day, "first replay (warm-up)", REPLAY_LIMIT);
            JsonNode status = replayDay(run, day, "replay", REPLAY_LIMIT);
            long found = status.path("ordersFound").asLong();
            if (found < orders) {
                // the order service remembered the batches (answered without writing) but the log no longer holds them
                throw new DemoException(("the replay found %,d orders on %s, fewer than the %,d backfilled: the order service "
                        + "answered batches it remembered from an earlier run that the log no longer holds (its data was reset "
                        + "alone?). Start from a clean stack (./demo down, remove .run/data and .run/kafka)").formatted(found, day,
                        orders));
            }
            return part(day, first, status);
        }
        finally {
            run.say("kitchen-screen: " + run.stack().restart("kitchen-screen", READER_RESTART) + "; analytics-dashboard: "
                    + run.stack().restart("analytics-dashboard", READER_RESTART));
        }
    }

    /**
     * A day of {@code orders} written into yesterday (UTC) as {@code ./demo backfill} writes them, from {@code seed}
     * ({@code again}: under new keys); its summary lines printed, its output kept for a failure; its rate in orders per
     * second.
     */
    static double backfill(BenchRun run, long orders, long seed, boolean again) {
        StringWriter backfillOut = new StringWriter();
        long started = System.nanoTime();
        try {
            new Backfill(new Backfill.Settings(1, Math.toIntExact(orders), ZoneOffset.UTC, Backfill.MAX_BATCH, seed, again,
                    Duration.ofMinutes(2), Backfill.DEFAULT_IN_FLIGHT), Backfill.orderService(run.orderService().base()),
                    new PrintWriter(backfillOut, true), run.out()).run();
        }
        catch (DemoException ex) {
            throw new DemoException("the backfill failed: " + ex.getMessage() + "; it said: " + backfillOut);
        }
        double rate = orders / ((System.nanoTime() - started) / 1e9);
        backfillOut.toString().lines().filter(line -> line.startsWith("Imported") || line.startsWith("Already in the log"))
                .forEach(run::say);
        return rate;
    }

    /** The measured replay beside consumer-perf-test reading as many records. */
    private Part part(LocalDate day, JsonNode first, JsonNode status) {
        long read = status.path("read").asLong();
        double replayRate = status.path("ratePerSecond").asDouble();
        double firstRate = first.path("ratePerSecond").asDouble();
        run.say("Kafka's consumer-perf-test reading %,d records of %s…".formatted(read, Topology.ORDERS_TOPIC));
        KafkaTools.ConsumerFigures consumer = new KafkaTools(run.root(), run.stack().bootstrapServers(), run.out())
                .consumerPerf(Topology.ORDERS_TOPIC, read);
        run.say("consumer-perf-test: %,.0f records/s (fetch %,.0f/s)".formatted(consumer.recordsPerSecond(),
                consumer.fetchRecordsPerSecond()));
        double ratio = BenchTable.ratio(replayRate, consumer.fetchRecordsPerSecond());
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("day", day.toString());
        figures.put("records", read);
        figures.put("ordersFound", status.path("ordersFound").asLong());
        figures.put("elapsedMillis", status.path("elapsedMillis").asLong());
        figures.put("replayPerSecond", replayRate);
        figures.put("firstReplayPerSecond", firstRate);
        figures.put("firstReplayElapsedMillis", first.path("elapsedMillis").asLong());
        figures.put("consumerPerf", consumer);
        figures.put("replayOverConsumerPerf", ratio);
        figures.put("goal", "replay >= 0.8 x consumer-perf-test");
        return new Part(KEY, figures, List.<String[]>of(new String[] {
            "replay of a day (%,d records, decode + aggregate)".formatted(read),
            "%,.0f/s (first replay %,.0f/s)".formatted(replayRate, firstRate),
            "consumer-perf-test: %,.0f/s".formatted(consumer.fetchRecordsPerSecond()), BenchTable.ratioCell(ratio), "≥ 0.80"}));
    }

    /** Replays one day on the replayer and waits for it (at most {@code limit}); fails unless it is done. */
    static JsonNode replayDay(BenchRun run, LocalDate day, String what, Duration limit) {
        ServiceClient replayer = run.replayer();
        JsonNode status = replayer.post("/admin/replays", Map.of("date", day.toString(), "zone", "UTC"), true);
        String id = ServiceClient.text(status, "id");
        Instant deadline = Instant.now().plus(limit);
        while (!List.of("DONE", "FAILED").contains(ServiceClient.text(status, "state"))) {
            if (Instant.now().isAfter(deadline)) {
                throw new DemoException("the %s of %s did not finish within %d minutes".formatted(what, day, limit.toMinutes()));
            }
            Pause.sleep(Duration.ofMillis(500));
            status = replayer.get("/api/replays/" + id);
        }
        if (!"DONE".equals(ServiceClient.text(status, "state"))) {
            throw new DemoException("the %s of %s failed: %s".formatted(what, day, ServiceClient.text(status, "error")));
        }
        run.say("%s of %s: %,d records in %.1f s, %,.0f/s".formatted(what, day, status.path("read").asLong(),
                status.path("elapsedMillis").asLong() / 1000.0, status.path("ratePerSecond").asDouble()));
        return status;
    }
}
