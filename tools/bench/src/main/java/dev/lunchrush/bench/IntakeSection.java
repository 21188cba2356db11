package dev.lunchrush.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;


/**
 * {@code ./demo bench --section intake}: the log act's intake ({@code POST /orders} into Kafka, acks=all) searched
 * for the highest rate it holds, beside the same driver on {@code GET /menu} (the HTTP ceiling) and
 * {@code kafka-producer-perf-test} with records of the events' size (the broker's).
 */
final class IntakeSection {

    static final String KEY = "intake";

    private final BenchRun run;
    private double bestRate;

    IntakeSection(BenchRun run) {
        this.run = run;
    }

    Part run(Supplier<byte[]> bodies, int recordSize) {
        run.act("log");
        boolean smoke = run.smoke();
        List<Double> rates = smoke ? RateSearch.SMOKE_RATES : RateSearch.RATES;
        Duration step = smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(10);
        Duration warmUp = smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(30);
        RateSearch.Outcome ceiling = RateSearch.run("HTTP ceiling (GET /menu)",
                run.orderService().menu(), null, rates, step, warmUp, run.out());
        RateSearch.Outcome intake = RateSearch.run("intake (POST /orders, log act)",
                run.orderService().orders(), bodies, rates, step, warmUp, run.out());
        run.say("Kafka's producer-perf-test: acks=all, idempotent, " + recordSize + " B records…");
        KafkaTools tools = new KafkaTools(run.root(), run.stack().bootstrapServers(), run.out());
        KafkaTools.ProducerFigures producer = tools.producerPerf("bench.producer-perf", smoke ? 2_000 : 500_000, recordSize);
        tools.deleteTopic("bench.producer-perf");
        run.say("producer-perf-test: %,.0f records/s, p50 %.0f ms, p99 %.0f ms".formatted(producer.recordsPerSecond(),
                producer.p50Millis(), producer.p99Millis()));
        bestRate = intake.bestRate();

        double overCeiling = BenchTable.ratio(intake.bestRate(), ceiling.bestRate());
        double overProducer = BenchTable.ratio(intake.bestRate(), producer.recordsPerSecond());
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("intake", intake);
        figures.put("httpCeiling", ceiling);
        figures.put("producerPerf", producer);
        figures.put("intakeOverHttpCeiling", overCeiling);
        figures.put("intakeOverProducerPerf", overProducer);
        figures.put("goal", "intake >= 0.8 x HTTP ceiling");
        return new Part(KEY, figures, List.of(
                new String[] {"intake: POST /orders → Kafka (acks=all)", BenchTable.rateCell(intake),
                    "GET /menu, same driver: " + BenchTable.rateCell(ceiling), BenchTable.ratioCell(overCeiling), "≥ 0.80"},
                new String[] {"", "", "producer-perf-test: %,.0f/s, p99 %.0f ms".formatted(producer.recordsPerSecond(),
                    producer.p99Millis()), BenchTable.ratioCell(overProducer), ""}));
    }

    /** The highest rate the intake held; 0 before the section has run, or when no step held. */
    double bestRate() {
        return bestRate;
    }
}
