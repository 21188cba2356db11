package dev.lunchrush.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Topology;
import dev.lunchrush.localstack.StackManifest;
import dev.lunchrush.localstack.access.DemoException;

/**
 * {@code ./demo bench --section scale}: the seed's volume. A day of orders (5,000,000 by default,
 * {@code --scale-orders}) written into yesterday by {@code ./demo backfill} with every reader up, beside
 * {@code kafka-producer-perf-test} writing as many records (at most a million) of the same size with {@code acks=all},
 * idempotence and a transaction every 25 ms, about a batch's worth; then, once the readers have read it, the day
 * replayed beside {@code kafka-consumer-perf-test} reading as many records; and what the day left behind: the disk each
 * service's data and the log grew by, per order, and each service's heap after a full collection, before and after.
 * Each run writes the day's orders once more (new keys): a run measures writes, not stored answers.
 */
final class ScaleSection {

    static final String KEY = "scale";
    static final long SEED = 20_261_207L;
    static final long DEFAULT_ORDERS = 5_000_000;
    static final long SMOKE_ORDERS = 5_000;
    private static final long MAX_REFERENCE_RECORDS = 1_000_000;
    private static final int TRANSACTION_MILLIS = 25;
    /** The log's bytes per order beyond the record itself (batch headers, index), and a margin for the services' data. */
    private static final double DISK_MARGIN = 1.5;
    private static final Duration REPLAY_LIMIT = Duration.ofMinutes(30);

    /** Replays measured after the first, which warms the replayer's compiled code up. */
    private static final int MEASURED_REPLAYS = 3;

    private final BenchRun run;
    private final long orders;

    ScaleSection(BenchRun run, long orders) {
        this.run = run;
        this.orders = orders;
    }

    Part run(int recordSize) {
        run.act("log");
        Path data = run.root().resolve(".run");
        requireRoom(data, recordSize);
        Map<String, Long> diskBefore = disk(data);
        Map<String, Double> heapBefore = HeapAfterGc.ofServices(run.root());
        KafkaTools kafka = new KafkaTools(run.root(), run.stack().bootstrapServers(), run.out());

        long referenceRecords = Math.min(orders, MAX_REFERENCE_RECORDS);
        run.say("scale: kafka-producer-perf-test, %,d records of %d B, acks=all, idempotent, a transaction every %d ms…"
                .formatted(referenceRecords, recordSize, TRANSACTION_MILLIS));
        KafkaTools.ProducerFigures producer = kafka.transactionalProducerPerf("bench.scale-producer-perf", referenceRecords,
                recordSize, TRANSACTION_MILLIS);
        kafka.deleteTopic("bench.scale-producer-perf");
        run.say("scale: producer-perf-test %,.0f records/s".formatted(producer.recordsPerSecond()));

        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(1);
        run.say("scale: ./demo backfill of %,d orders into %s, every reader up…".formatted(orders, day));
        double backfillRate = ReplaySection.backfill(run, orders, SEED, true);
        Bench.quiesce(run);

        JsonNode first = ReplaySection.replayDay(run, day, "first replay (warm-up)", REPLAY_LIMIT);
        List<JsonNode> replays = new ArrayList<>();
        for (int round = 1; round <= MEASURED_REPLAYS; round++) {
            replays.add(ReplaySection.replayDay(run, day, "replay %d of %d".formatted(round, MEASURED_REPLAYS),
                    REPLAY_LIMIT));
        }
        JsonNode replay = median(replays);
        long read = replay.path("read").asLong();
        KafkaTools.ConsumerFigures consumer = kafka.consumerPerf(Topology.ORDERS_TOPIC, read);
        run.say("scale: consumer-perf-test %,.0f records/s".formatted(consumer.fetchRecordsPerSecond()));

        Map<String, Long> diskAfter = disk(data);
        Map<String, Double> heapAfter = HeapAfterGc.ofServices(run.root());
        return part(recordSize, producer, backfillRate, first, replay, replays, consumer, diskBefore, diskAfter,
                heapBefore, heapAfter);
    }

    /** The replay of the median rate: one replay's rate moves by a quarter from one to the next on two busy cores. */
    static JsonNode median(List<JsonNode> replays) {
        List<JsonNode> sorted = new ArrayList<>(replays);
        sorted.sort(Comparator.comparingDouble(replay -> replay.path("ratePerSecond").asDouble()));
        return sorted.get(sorted.size() / 2);
    }

    /** Checked before anything is written: the log's copy of the day, and a margin, must fit on the disk of {@code .run}. */
    private void requireRoom(Path data, int recordSize) {
        long needed = (long) (orders * (double) recordSize * DISK_MARGIN);
        long free;
        try {
            free = Files.getFileStore(data).getUsableSpace();
        }
        catch (IOException ex) {
            throw new DemoException("cannot tell the free space under " + data + ": " + ex.getMessage());
        }
        if (free < needed) {
            throw new DemoException(("the disk under %s has %,.1f GB free; a day of %,d orders of %d B needs about %,.1f GB "
                    + "(the log's copy and a margin): free some space or ask for fewer (--scale-orders)").formatted(data,
                            free / 1e9, orders, recordSize, needed / 1e9));
        }
    }

    /**
     * Bytes on disk of the orders' log (the segments of every partition of {@value Topology#ORDERS_TOPIC} on every broker
     * under {@code .run/kafka*}: the index files are left out, Kafka makes them full-size and sparse) and of each
     * service's data directory.
     */
    static Map<String, Long> disk(Path data) {
        Map<String, Long> sizes = new LinkedHashMap<>();
        long log = 0;
        try (Stream<Path> entries = Files.list(data)) {
            for (Path entry : entries.filter(path -> path.getFileName().toString().startsWith("kafka")
                    && Files.isDirectory(path)).toList()) {
                log += size(entry, file -> file.getFileName().toString().endsWith(".log")
                        && file.getParent().getFileName().toString().matches(Pattern.quote(Topology.ORDERS_TOPIC) + "-\\d+"));
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        sizes.put("the log (Kafka)", log);
        for (StackManifest.Service service : StackManifest.get().lessonServices()) {
            Path dir = data.resolve("data").resolve(service.name());
            sizes.put(service.name(), Files.isDirectory(dir) ? size(dir, file -> true) : 0L);
        }
        return sizes;
    }

    private static long size(Path dir, Predicate<Path> counted) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(counted).mapToLong(file -> {
                try {
                    return Files.size(file);
                }
                catch (IOException ex) {
                    return 0;  // a segment deleted while we looked
                }
            }).sum();
        }
        catch (IOException | UncheckedIOException ex) {
            return 0;
        }
    }

    private Part part(int recordSize, KafkaTools.ProducerFigures producer, double backfillRate, JsonNode first,
            JsonNode replay, List<JsonNode> replays, KafkaTools.ConsumerFigures consumer, Map<String, Long> diskBefore,
            Map<String, Long> diskAfter, Map<String, Double> heapBefore, Map<String, Double> heapAfter) {
        double backfillRatio = BenchTable.ratio(backfillRate, producer.recordsPerSecond());
        double replayRate = replay.path("ratePerSecond").asDouble();
        double replayRatio = BenchTable.ratio(replayRate, consumer.fetchRecordsPerSecond());
        Map<String, Double> kbPerOrder = new LinkedHashMap<>();
        diskAfter.forEach((name, after) -> kbPerOrder.put(name, (after - diskBefore.getOrDefault(name, 0L)) / 1e3 / orders));
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("orders", orders);
        figures.put("recordBytes", recordSize);
        figures.put("backfillPerSecond", backfillRate);
        figures.put("producerPerf", producer);
        figures.put("backfillOverProducerPerf", backfillRatio);
        figures.put("replayRecords", replay.path("read").asLong());
        figures.put("replayOrdersFound", replay.path("ordersFound").asLong());
        figures.put("replayPerSecond", replayRate);
        figures.put("replayRatesPerSecond", replays.stream().map(each -> each.path("ratePerSecond").asDouble()).toList());
        figures.put("firstReplayPerSecond", first.path("ratePerSecond").asDouble());
        figures.put("consumerPerf", consumer);
        figures.put("replayOverConsumerPerf", replayRatio);
        figures.put("diskBytesBefore", diskBefore);
        figures.put("diskBytesAfter", diskAfter);
        figures.put("diskKbPerOrder", kbPerOrder);
        figures.put("heapAfterGcMbBefore", heapBefore);
        figures.put("heapAfterGcMbAfter", heapAfter);
        figures.put("goals", "backfill >= 0.5 x producer-perf-test; replay >= 0.8 x consumer-perf-test; disk <= 0.2 KB per "
                + "order in every service; heap after GC within 10% of the start");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"backfill of a day (%,d orders of %d B, readers up)".formatted(orders, recordSize),
            "%,.0f/s".formatted(backfillRate), "producer-perf-test (transactions): %,.0f/s".formatted(producer.recordsPerSecond()),
            BenchTable.ratioCell(backfillRatio), "≥ 0.50"});
        rows.add(new String[] {"replay of the day (%,d records, median of %d)".formatted(replay.path("read").asLong(),
            replays.size()),
            "%,.0f/s".formatted(replayRate), "consumer-perf-test: %,.0f/s".formatted(consumer.fetchRecordsPerSecond()),
            BenchTable.ratioCell(replayRatio), "≥ 0.80"});
        kbPerOrder.forEach((name, kb) -> rows.add(new String[] {"disk per order: " + name,
            "%.3f KB (%,.1f MB in all)".formatted(kb, kb * orders / 1e3), "", "", name.startsWith("the log") ? "—" : "≤ 0.2 KB"}));
        heapAfter.forEach((name, after) -> rows.add(new String[] {"heap after GC: " + name,
            "%.1f → %.1f MB".formatted(heapBefore.getOrDefault(name, Double.NaN), after), "", "", "within 10%"}));
        return new Part(KEY, figures, rows);
    }
}
