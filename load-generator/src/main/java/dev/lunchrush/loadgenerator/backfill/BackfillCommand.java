package dev.lunchrush.loadgenerator.backfill;

import java.io.PrintWriter;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import me.tongfei.progressbar.ProgressBar;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.Topology;
import dev.lunchrush.loadgenerator.AdminPassword;
import dev.lunchrush.loadgenerator.Demo;
import dev.lunchrush.loadgenerator.DemoException;
import dev.lunchrush.loadgenerator.DurationConverter;
import dev.lunchrush.loadgenerator.Progress;
import dev.lunchrush.loadgenerator.RepoRoot;
import dev.lunchrush.loadgenerator.ServiceClient;

/** {@code ./demo backfill}: past days of orders into the log, with their real timestamps, each batch written once. */
@Command(name = "backfill", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Put past days (yesterday and back) of realistic orders into the log with their real timestamps, "
                + "through the order service's admin import (POST /admin/orders/import, batches of at most 1000), "
                + "with a progress bar. The hours follow a delivery day: a lunch peak and an evening peak.",
            "The orders follow from the seed (drawn and printed when --seed is not given), and every batch carries an "
                + "Idempotency-Key made of the run's parameters: the same command with the same seed writes nothing "
                + "twice (the service answers each batch with its stored answer), so a backfill that stopped can be "
                + "run again to write what is missing. --again writes the same orders once more.",
            "A batch answered 5xx or not at all is sent again (1, 2, 4, then every 5 s, for --retry-for); a 4xx stops "
                + "the backfill with the service's reason.",
            "Example: ./demo backfill --days 7 --orders-per-day 20000 --zone Europe/Paris"})
public class BackfillCommand implements Callable<Integer> {

    static final int MAX_BATCH = 1000;

    /** The header with which the order service marks an answer it gave before to the same key and body. */
    static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    /** Longer than the order service's import timeout (30 s), so that its answer is not cut off. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(45);

    @ParentCommand
    private Demo demo;

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

    /** Days the log still holds entirely: its retention minus today and a day of margin. */
    static int maxDays() {
        return (int) Topology.ORDERS_RETENTION_DAYS - 1;
    }

    @Override
    public Integer call() {
        if (days < 1 || days > maxDays()) {
            throw DemoException.badInput("--days must be between 1 and " + maxDays()
                    + " (the log keeps " + Topology.ORDERS_RETENTION_DAYS + " days), not " + days);
        }
        if (ordersPerDay < 1) {
            throw DemoException.badInput("--orders-per-day must be at least 1, not " + ordersPerDay);
        }
        if (batch < 1 || batch > MAX_BATCH) {
            throw DemoException.badInput("--batch must be between 1 and " + MAX_BATCH + ", not " + batch);
        }
        if (retryFor.compareTo(ImportRetry.FIRST_DELAY.multipliedBy(2)) < 0 || retryFor.toHours() >= 1) {
            throw DemoException.badInput("--retry-for must be between 2 s and 1 h, not " + retryFor.toSeconds() + " s");
        }
        PrintWriter out = spec.commandLine().getOut();
        ServiceClient orderService = new ServiceClient(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(3)).build(), "order-service", demo.endpoints().orderService(),
                () -> AdminPassword.require(RepoRoot.find()), REQUEST_TIMEOUT);
        Menu menu = ServiceClient.JSON.treeToValue(orderService.get("/menu"), Menu.class);
        long runSeed = seed != null ? seed : drawSeed();
        BackfillRun run = BackfillRun.of(runSeed, zone, ordersPerDay, batch);
        if (seed == null) {
            out.printf("seed %d: run again with --seed %d to repeat, nothing is written twice%n", runSeed, runSeed);
        }
        if (again) {
            String salt = UUID.randomUUID().toString();
            run = run.salted(salt);
            out.printf("--again: new Idempotency-Keys (salt %s), so these orders are written once more%n", salt);
        }

        String resume = again ? "" : ". The batches before it are in the log: the same command with --seed " + runSeed
                + " writes only what is missing";
        LocalDate yesterday = LocalDate.now(zone).minusDays(1);
        LocalDate oldest = yesterday.minusDays(days - 1L);
        long total = (long) days * ordersPerDay;
        out.printf("Backfilling %d day(s), %s to %s (%s), %,d orders each: %,d orders in batches of %d%n", days, oldest,
                yesterday, zone, ordersPerDay, total, batch);
        out.flush();

        long[] perHour = new long[24];
        long imported = 0;
        long alreadyInLog = 0;
        long batchesAgain = 0;
        long writtenBeforeRetry = 0;
        long started = System.nanoTime();
        try (ProgressBar bar = Progress.bar("backfill", total, spec.commandLine().getErr())) {
            for (LocalDate day = oldest; !day.isAfter(yesterday); day = day.plusDays(1)) {
                DayBatches batches = new DayBatches(menu, run, day);
                while (batches.hasNext()) {
                    DayBatches.Batch next = batches.next();
                    Sent sent = send(orderService, next, batches.count(), resume, out);
                    if (sent.replayed() && sent.attempts() == 1) {
                        alreadyInLog += next.orders().size();
                        batchesAgain++;
                    }
                    else {
                        imported += next.orders().size();
                        writtenBeforeRetry += sent.replayed() ? 1 : 0;
                    }
                    next.placedAt().forEach(placedAt -> perHour[placedAt.atZone(zone).getHour()]++);
                    bar.stepTo(imported + alreadyInLog);
                    bar.setExtraMessage(" " + day);
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        out.printf("Imported %,d orders in %.1f s (%,.0f orders/s).%n", imported, seconds, imported / seconds);
        if (writtenBeforeRetry > 0) {
            out.printf("Written by an attempt whose answer did not arrive: %,d batches (sent again, answered with the "
                    + "stored answer, not written twice).%n", writtenBeforeRetry);
        }
        if (alreadyInLog > 0) {
            out.printf("Already in the log: %,d orders (%,d batches answered with the order service's stored answer: "
                    + "this seed's orders were written before; --again writes them once more).%n", alreadyInLog, batchesAgain);
        }
        out.println();
        out.println("Orders per hour of the day (" + zone + "), all days together:");
        out.print(HourChart.render(perHour));
        out.println();
        out.println("Replay one of these days: ./demo replay " + yesterday + (zone.getId().equals("UTC") ? "" : " --zone " + zone));
        out.flush();
        return 0;
    }

    /** A seed short enough to type again. */
    private static long drawSeed() {
        return 1 + new SecureRandom().nextInt(999_999_999);
    }

    /**
     * How a batch went in.
     *
     * @param replayed the order service answered with the stored answer of an earlier request with the same key and
     *     body: the batch was in the log already and was not written again
     * @param attempts how many times it was sent
     */
    private record Sent(boolean replayed, int attempts) {
    }

    /**
     * One batch, all or nothing, under its {@code Idempotency-Key}; sent again as {@link ImportRetry} says, each time
     * with the same key and body, so that a batch written once is never written twice.
     */
    private Sent send(ServiceClient orderService, DayBatches.Batch next, int batchesOfDay, String resume,
            PrintWriter out) {
        String which = "batch %d of %d of %s".formatted(next.index() + 1, batchesOfDay, next.day());
        AtomicInteger attempts = new AtomicInteger();
        long started = System.nanoTime();
        RetryPolicy<ServiceClient.Reply> policy = ImportRetry.policy(retryFor, event -> {
            out.printf("%s: %s; sending it again (attempt %d)%n", which,
                    event.getLastException() == null ? "no answer" : event.getLastException().getMessage(),
                    event.getAttemptCount() + 1);
            out.flush();
        });
        ServiceClient.Reply answer;
        try {
            answer = Failsafe.with(policy).get(() -> {
                attempts.incrementAndGet();
                return orderService.send("POST", "/admin/orders/import", next.orders(), true,
                        Map.of("Idempotency-Key", next.idempotencyKey()));
            });
        }
        catch (DemoException ex) {
            String hint = ex.status() == 422 ? " (the key was used for other orders: has the menu changed since this seed "
                    + "was written? --again writes under new keys)" : "";
            String tries = attempts.get() > 1 ? " (after %d attempts in %.0f s)".formatted(attempts.get(),
                    (System.nanoTime() - started) / 1e9) : "";
            throw new DemoException("backfill stopped at " + which + ": " + ex.getMessage() + hint + tries + resume);
        }
        catch (FailsafeException ex) {
            if (ex.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw new DemoException("interrupted");
            }
            throw new DemoException("backfill stopped at " + which + ": " + ex.getMessage() + resume);
        }
        long imported = ServiceClient.number(answer.body(), "imported");
        if (imported != next.orders().size()) {
            throw new DemoException("order-service imported " + imported + " of a batch of " + next.orders().size()
                    + " orders of " + next.day() + "; the import is meant to be all or nothing");
        }
        return new Sent(answer.header(IDEMPOTENT_REPLAYED, "true"), attempts.get());
    }

    /** A zone id like {@code Europe/Paris} or {@code UTC}; anything else is bad input. */
    public static final class ZoneConverter implements ITypeConverter<ZoneId> {
        @Override
        public ZoneId convert(String value) {
            try {
                return ZoneId.of(value);
            }
            catch (RuntimeException ex) {
                throw new TypeConversionException("'" + value + "' is not a time zone; use an id like UTC or Europe/Paris");
            }
        }
    }

}
