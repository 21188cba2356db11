package dev.lunchrush.load.backfill;

import java.io.PrintWriter;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import me.tongfei.progressbar.ProgressBar;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.Topology;
import dev.lunchrush.load.Progress;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.localstack.access.AdminPassword;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.processes.RepoRoot;

/**
 * Past days of orders into the log, with their real timestamps, through the order service's admin import
 * ({@code POST /admin/orders/import}), each batch under an {@code Idempotency-Key} made of the run's parameters, so
 * that the same settings write nothing twice. {@code ./demo backfill} runs it, and so do the fault suite and the
 * benchmark.
 */
public final class Backfill {

    public static final int MAX_BATCH = 1000;

    /** Batches under way at once by default: while one waits for its Kafka transaction, the next are read and checked. */
    public static final int DEFAULT_IN_FLIGHT = 4;
    public static final int MAX_IN_FLIGHT = 16;

    /** The header with which the order service marks an answer it gave before to the same key and body. */
    public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    /** Longer than the order service's import timeout (30 s), so that its answer is not cut off. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(45);

    /**
     * What to write.
     *
     * @param days how many past days, yesterday first
     * @param ordersPerDay orders in each day
     * @param zone the zone whose days and hours these are
     * @param batch orders per request
     * @param seed the seed the orders are drawn from; {@code null}: drawn, and printed
     * @param again write the seed's orders once more, under new keys
     * @param retryFor how long a batch is sent again after a 5xx or no answer, at most
     * @param inFlight how many batches are under way at once, each its own request and transaction
     */
    public record Settings(int days, int ordersPerDay, ZoneId zone, int batch, @Nullable Long seed, boolean again,
            Duration retryFor, int inFlight) {

        /** Bad input is refused here, before anything is sent. */
        public Settings {
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
            if (inFlight < 1 || inFlight > MAX_IN_FLIGHT) {
                throw DemoException.badInput("--in-flight must be between 1 and " + MAX_IN_FLIGHT + ", not " + inFlight);
            }
        }
    }

    private final Settings settings;
    private final ServiceClient orderService;
    private final PrintWriter out;
    private final PrintWriter err;

    /**
     * @param out where the summary goes
     * @param err where the progress bar goes
     */
    public Backfill(Settings settings, ServiceClient orderService, PrintWriter out, PrintWriter err) {
        this.settings = settings;
        this.orderService = orderService;
        this.out = out;
        this.err = err;
    }

    /** A client of the order service's import, with a timeout longer than the import's own. */
    public static ServiceClient orderService(java.net.URI base) {
        return new ServiceClient("order-service", base, () -> AdminPassword.require(RepoRoot.find()),
                Duration.ofSeconds(3), REQUEST_TIMEOUT);
    }

    /** Days the log still holds entirely: its retention minus today and a day of margin. */
    public static int maxDays() {
        return (int) Topology.ORDERS_RETENTION_DAYS - 1;
    }

    /** Writes the days; a batch the service refuses, or that finds no answer for too long, ends it with a {@link DemoException}. */
    public void run() {
        Menu menu = ServiceClient.JSON.treeToValue(orderService.get("/menu"), Menu.class);
        long runSeed = settings.seed() != null ? settings.seed() : drawSeed();
        BackfillRun run = BackfillRun.of(runSeed, settings.zone(), settings.ordersPerDay(), settings.batch());
        if (settings.seed() == null) {
            out.printf("seed %d: run again with --seed %d to repeat, nothing is written twice%n", runSeed, runSeed);
        }
        if (settings.again()) {
            String salt = UUID.randomUUID().toString();
            run = run.salted(salt);
            out.printf("--again: new Idempotency-Keys (salt %s), so these orders are written once more%n", salt);
        }

        String resume = settings.again() ? "" : ". The batches before it are in the log: the same command with --seed " + runSeed
                + " writes only what is missing";
        LocalDate yesterday = LocalDate.now(settings.zone()).minusDays(1);
        LocalDate oldest = yesterday.minusDays(settings.days() - 1L);
        long total = (long) settings.days() * settings.ordersPerDay();
        out.printf("Backfilling %d day(s), %s to %s (%s), %,d orders each: %,d orders in batches of %d%n", settings.days(), oldest,
                yesterday, settings.zone(), settings.ordersPerDay(), total, settings.batch());
        out.flush();
        LogRoomCheck.require(orderService, total, LogRoomCheck.bytesPerOrder(menu, runSeed), out);

        Tally tally = new Tally();
        long started = System.nanoTime();
        ExecutorService senders = Executors.newFixedThreadPool(settings.inFlight(), work -> {
            Thread thread = new Thread(work, "backfill-sender");
            thread.setDaemon(true);
            return thread;
        });
        try (ProgressBar bar = Progress.bar("backfill", total, err)) {
            // the batches are sent in their order, at most inFlight at once, and counted in their order as they end; after
            // a batch that failed no other is sent, those under way end, and the first failure is what the run says
            Deque<Pending> pending = new ArrayDeque<>();
            DemoException failed = null;
            for (LocalDate day = oldest; !day.isAfter(yesterday) && failed == null; day = day.plusDays(1)) {
                DayBatches batches = new DayBatches(menu, run, day);
                while (batches.hasNext() && failed == null) {
                    DayBatches.Batch next = batches.next();
                    int batchesOfDay = batches.count();
                    pending.add(new Pending(next, CompletableFuture.supplyAsync(() -> send(next, batchesOfDay, resume, out),
                            senders)));
                    while (pending.size() >= settings.inFlight() && failed == null) {
                        failed = settle(pending.removeFirst(), tally, bar);
                    }
                }
            }
            while (!pending.isEmpty()) {
                DemoException failure = settle(pending.removeFirst(), tally, bar);
                failed = failed == null ? failure : failed;
            }
            if (failed != null) {
                throw failed;
            }
        }
        finally {
            senders.shutdownNow();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        out.printf("Imported %,d orders in %.1f s (%,.0f orders/s).%n", tally.imported, seconds,
                tally.imported / seconds);
        if (tally.writtenBeforeRetry > 0) {
            out.printf("Written by an attempt whose answer did not arrive: %,d batches (sent again, answered with the "
                    + "stored answer, not written twice).%n", tally.writtenBeforeRetry);
        }
        if (tally.alreadyInLog > 0) {
            out.printf("Already in the log: %,d orders (%,d batches answered with the order service's stored answer: "
                    + "this seed's orders were written before; --again writes them once more).%n", tally.alreadyInLog,
                    tally.batchesAgain);
        }
        out.println();
        out.println("Orders per hour of the day (" + settings.zone() + "), all days together:");
        out.print(HourChart.render(tally.perHour));
        out.println();
        out.println("Replay one of these days: ./demo replay " + yesterday + (settings.zone().getId().equals("UTC") ? "" : " --zone " + settings.zone()));
        out.flush();
    }

    private record Pending(DayBatches.Batch batch, CompletableFuture<Sent> sent) {
    }

    /** What the batches that ended did, counted in the main thread only. */
    private static final class Tally {
        final long[] perHour = new long[24];
        long imported;
        long alreadyInLog;
        long batchesAgain;
        long writtenBeforeRetry;
    }

    /** Waits for the batch and counts it; its failure, if it failed. */
    private @Nullable DemoException settle(Pending pending, Tally tally, ProgressBar bar) {
        Sent sent;
        try {
            sent = pending.sent().join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof DemoException demo) {
                return demo;
            }
            throw ex;
        }
        DayBatches.Batch batch = pending.batch();
        if (sent.replayed() && sent.attempts() == 1) {
            tally.alreadyInLog += batch.orders().size();
            tally.batchesAgain++;
        }
        else {
            tally.imported += batch.orders().size();
            tally.writtenBeforeRetry += sent.replayed() ? 1 : 0;
        }
        batch.placedAt().forEach(placedAt -> tally.perHour[placedAt.atZone(settings.zone()).getHour()]++);
        bar.stepTo(tally.imported + tally.alreadyInLog);
        bar.setExtraMessage(" " + batch.day());
        return null;
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
    private Sent send(DayBatches.Batch next, int batchesOfDay, String resume,
            PrintWriter out) {
        String which = "batch %d of %d of %s".formatted(next.index() + 1, batchesOfDay, next.day());
        AtomicInteger attempts = new AtomicInteger();
        long started = System.nanoTime();
        RetryPolicy<ServiceClient.Reply> policy = ImportRetry.policy(settings.retryFor(), event -> {
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

}
