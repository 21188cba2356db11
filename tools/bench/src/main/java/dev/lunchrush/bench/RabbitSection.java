package dev.lunchrush.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;


/**
 * {@code ./demo bench --section rabbitmq}: act 1's intake ({@code POST /orders} into RabbitMQ, persistent, with
 * confirms) searched for the highest rate it holds, beside a plain amqp-client publisher of messages of the
 * events' size, confirms in a window of 1,000.
 */
final class RabbitSection {

    static final String KEY = "rabbitmq";

    private final BenchRun run;

    RabbitSection(BenchRun run) {
        this.run = run;
    }

    Part run(Supplier<byte[]> bodies, int recordSize) {
        run.act("shared-queue");
        boolean smoke = run.smoke();
        RateSearch.Outcome intake = RateSearch.run("act 1 intake (POST /orders → RabbitMQ)",
                run.orderService().orders(), bodies, smoke ? RateSearch.SMOKE_RATES : RateSearch.RATES,
                smoke ? Duration.ofSeconds(2) : Duration.ofSeconds(10), smoke ? Duration.ofSeconds(1) : Duration.ofSeconds(10),
                run.out());
        run.say("plain amqp-client publisher: persistent, confirms, window 1000…");
        byte[] message = new byte[recordSize];
        Arrays.fill(message, (byte) 'x');
        RabbitReference.Figures reference = RabbitReference.publish("127.0.0.1", 5672,
                System.getenv().getOrDefault("SPRING_RABBITMQ_USERNAME", "guest"),
                System.getenv().getOrDefault("SPRING_RABBITMQ_PASSWORD", "guest"), "bench.reference",
                smoke ? 1_000 : 100_000, message, 1000);
        run.say("amqp-client publisher: %,.0f messages/s".formatted(reference.messagesPerSecond()));

        double ratio = BenchTable.ratio(intake.bestRate(), reference.messagesPerSecond());
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("intake", intake);
        figures.put("referencePublisher", reference);
        figures.put("intakeOverReference", ratio);
        return new Part(KEY, figures, List.<String[]>of(new String[] {"act 1: POST /orders → RabbitMQ (confirms)",
            BenchTable.rateCell(intake), "amqp-client publisher, window 1000: %,.0f/s".formatted(reference.messagesPerSecond()),
            BenchTable.ratioCell(ratio), ""}));
    }
}
