package dev.lunchrush.demo;

import java.time.Duration;
import java.time.ZoneId;
import java.util.concurrent.Callable;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import dev.lunchrush.load.backfill.Backfill;
import dev.lunchrush.localstack.access.ExitCodes;

/** {@code ./demo backfill}: past days of orders into the log, with their real timestamps, each batch written once. */
@Command(name = "backfill", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Put past days (yesterday and back) of realistic orders into the log with their real timestamps, "
                + "through the order service's admin import (POST /admin/orders/import, batches of at most 1000), "
                + "with a progress bar. The hours follow a delivery day: a lunch peak and an evening peak.",
            "The orders follow from the seed (drawn and printed when --seed is not given), and every batch carries an "
                + "Idempotency-Key made of the run's parameters: the same command with the same seed writes nothing "
                + "twice (the service answers each batch with its stored answer), so a backfill that stopped can be "
                + "run again to write what is missing. --again writes the same orders once more.",
            "Before it writes, the room on the log's disks is asked for (GET /admin/orders/import/room): a run the log's "
                + "copy of would not fit, with half as much again for a margin, is refused, nothing written.",
            "A batch answered 5xx or not at all is sent again (1, 2, 4, then every 5 s, for --retry-for); a 4xx stops "
                + "the backfill with the service's reason.",
            "Example: ./demo backfill --days 7 --orders-per-day 20000 --zone Europe/Paris"})
public class BackfillCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--days", required = true, paramLabel = "D",
            description = "how many past days, yesterday first (at most 13: the log keeps 14 days)")
    private int days;

    @Option(names = "--orders-per-day", required = true, paramLabel = "N", description = "orders in each day")
    private int ordersPerDay;

    @Option(names = "--zone", paramLabel = "Z", defaultValue = "UTC", converter = ZoneConverter.class,
            description = "the zone whose days and hours these are (default: ${DEFAULT-VALUE})")
    private ZoneId zone = ZoneId.of("UTC");

    @Option(names = "--batch", paramLabel = "N", defaultValue = "1000", description = "orders per request, at most 1000")
    private int batch;

    @Option(names = "--seed", paramLabel = "N",
            description = "the seed the orders are drawn from (default: drawn, and printed so that the run can be repeated)")
    private @Nullable Long seed;

    @Option(names = "--again",
            description = "write this seed's orders once more, under new Idempotency-Keys (default: what is already in "
                    + "the log is not written again)")
    private boolean again;

    @Option(names = "--retry-for", paramLabel = "D", defaultValue = "2m", converter = DurationConverter.class,
            description = "how long a batch is sent again after a 5xx or no answer, at most (default: ${DEFAULT-VALUE})")
    private Duration retryFor;

    @Option(names = "--in-flight", paramLabel = "N", defaultValue = "" + Backfill.DEFAULT_IN_FLIGHT,
            description = "batches under way at once, each its own request and Kafka transaction, at most "
                    + Backfill.MAX_IN_FLIGHT + " (default: ${DEFAULT-VALUE})")
    private int inFlight;

    @Override
    public Integer call() {
        Backfill.Settings settings = new Backfill.Settings(days, ordersPerDay, zone, batch, seed, again, retryFor, inFlight);
        new Backfill(settings, Backfill.orderService(EndpointOptions.of(spec).orderService()),
                spec.commandLine().getOut(), spec.commandLine().getErr()).run();
        return ExitCodes.DONE;
    }
}
