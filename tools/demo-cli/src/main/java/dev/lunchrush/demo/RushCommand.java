package dev.lunchrush.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import dev.lunchrush.load.rush.Rush;
import dev.lunchrush.load.rush.RushOptions;

/** {@code ./demo rush}: the lunch rush against the running stack. */
@Command(name = "rush", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Place realistic random orders through POST /orders, open-loop at the asked rate, with a live "
                + "table while it runs and the lesson's measured-vs-predicted table at the end.",
            "Profiles: lunch (the lesson: 400/s × N from 12:20 to 12:35, then 100/s × N; the dashboard's capacity is "
                + "set to 250/s × N for the rush and restored after), constant (--rate --duration), "
                + "step (--rate, then --then-rate), custom (--rate --duration --then-rate --then-duration).",
            "Examples: ./demo rush --profile lunch --speed 2 | ./demo rush --rate 200 --duration 30s"})
public class RushCommand implements Callable<Integer> {

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
                    + "generation less what it keeps alive at the start, plus two of the feed's 1 MiB pages; the "
                    + "lesson's 100 MB where it does not say)")
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
        Rush.Settings settings = options().settings(RushOptions.Naming.FLAGS, json);
        return new Rush(settings, EndpointOptions.of(spec), spec.commandLine().getOut()).run();
    }

    /** The flags as the rush's options, which check themselves: inconsistent flags are bad input (exit 2). */
    RushOptions options() {
        return new RushOptions(profileName, speed, rate, duration, thenRate, thenDuration, count, dashboardCapacity,
                budgetMb, maxInFlight, requestTimeout, seed);
    }
}
