package dev.lunchrush.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import dev.lunchrush.bench.Bench;
import dev.lunchrush.bench.Section;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.processes.RepoRoot;

/** {@code ./demo bench}: Lunch Rush against the brokers' own limits, measured side by side in one run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks against the stack of ./demo up, each beside its reference measured in the same run: "
                + "the CPU an order costs each process of the stack at 400/s and 200/s (from /proc) against the goals, beside "
                + "what a GET /menu costs the order service and a record the Kafka broker under kafka-producer-perf-test; "
                + "intake (POST /orders into Kafka, acks=all) against the same driver on GET /menu (the HTTP ceiling) and "
                + "kafka-producer-perf-test (the broker's); act 1's intake against a plain amqp-client publisher; the "
                + "latency from order to kitchen screen at 400/s and 4,000/s; the order service's heap after GC "
                + "through an overload; a replay of a day of 1,000,000 orders against kafka-consumer-perf-test; and, when "
                + "asked (--section scale), the seed's volume: a backfilled day of 5,000,000 orders against "
                + "kafka-producer-perf-test, its replay, the disk per order of every service and the heaps before and after.",
            "Prints a table, writes bench/bench-<time>.json and bench/latest.json. --smoke: tiny sizes, a few "
                + "seconds each, to check that it runs. Switches the act and stops the two readers during the replay "
                + "section (they catch up afterwards): run it on a stack for testing."})
public class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--smoke", description = "tiny sizes and short steps, no goals: that the benchmark runs")
    private boolean smoke;

    @Option(names = "--section", split = ",", paramLabel = "NAME",
            description = "only these: cpu, intake, rabbitmq, e2e, memory, replay, scale (default: all but scale; --smoke: all)",
            converter = SectionConverter.class)
    private List<Section> sections = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench", description = "where the JSON goes (default: ${DEFAULT-VALUE})")
    private Path outDir;

    @Option(names = "--replay-orders", paramLabel = "N", description = "orders in the replayed day (default: 1000000; --smoke 5000)")
    private @Nullable Long replayOrders;

    @Option(names = "--scale-orders", paramLabel = "N",
            description = "orders in the scale section's day (default: 5000000; --smoke 5000)")
    private @Nullable Long scaleOrders;

    @Override
    public Integer call() {
        if (replayOrders != null && (replayOrders < 1000 || replayOrders > 20_000_000)) {
            throw DemoException.badInput("--replay-orders must be between 1000 and 20000000, not " + replayOrders);
        }
        if (scaleOrders != null && (scaleOrders < 1000 || scaleOrders > 20_000_000)) {
            throw DemoException.badInput("--scale-orders must be between 1000 and 20000000, not " + scaleOrders);
        }
        Bench.Settings settings = new Bench.Settings(smoke,
                sections.isEmpty() ? Section.byDefault(smoke) : EnumSet.copyOf(sections), outDir, replayOrders, scaleOrders);
        new Bench(settings, RepoRoot.find(), EndpointOptions.of(spec), spec.commandLine().getOut()).run();
        return 0;
    }

    static final class SectionConverter implements ITypeConverter<Section> {
        @Override
        public Section convert(String value) {
            try {
                return Section.named(value);
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException(ex.getMessage());
            }
        }
    }
}
