package dev.lunchrush.loadgenerator.backfill;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

import me.tongfei.progressbar.ProgressBar;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.SampleOrders;
import dev.lunchrush.events.Topology;
import dev.lunchrush.loadgenerator.AdminPassword;
import dev.lunchrush.loadgenerator.Demo;
import dev.lunchrush.loadgenerator.DemoException;
import dev.lunchrush.loadgenerator.Progress;
import dev.lunchrush.loadgenerator.RepoRoot;
import dev.lunchrush.loadgenerator.ServiceClient;
import dev.lunchrush.loadgenerator.Pause;

/** {@code ./demo backfill}: past days of orders into the log, with their real timestamps. */
@Command(name = "backfill", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Put past days (yesterday and back) of realistic orders into the log with their real timestamps, "
                + "through the order service's admin import (POST /admin/orders/import, batches of at most 1000), "
                + "with a progress bar. The hours follow a delivery day: a lunch peak and an evening peak.",
            "Example: ./demo backfill --days 7 --orders-per-day 20000 --zone Europe/Paris"})
public class BackfillCommand implements Callable<Integer> {

    static final int MAX_BATCH = 1000;
    private static final int ATTEMPTS = 5;

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

    @Option(names = "--seed", paramLabel = "N", description = "random seed (default: random)")
    private @Nullable Long seed;

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
        PrintWriter out = spec.commandLine().getOut();
        ServiceClient orderService = new ServiceClient("order-service", demo.endpoints().orderService(),
                () -> AdminPassword.require(RepoRoot.find()));
        Menu menu = ServiceClient.JSON.treeToValue(orderService.get("/menu"), Menu.class);
        Random random = seed == null ? new Random() : new Random(seed);
        SampleOrders orders = new SampleOrders(menu, random);

        LocalDate yesterday = LocalDate.now(zone).minusDays(1);
        LocalDate oldest = yesterday.minusDays(days - 1L);
        long total = (long) days * ordersPerDay;
        out.printf("Backfilling %d day(s), %s to %s (%s), %,d orders each: %,d orders in batches of %d%n", days, oldest,
                yesterday, zone, ordersPerDay, total, batch);
        out.flush();

        long[] perHour = new long[24];
        long imported = 0;
        long started = System.nanoTime();
        try (ProgressBar bar = Progress.bar("backfill", total, spec.commandLine().getErr())) {
            for (LocalDate day = oldest; !day.isAfter(yesterday); day = day.plusDays(1)) {
                List<Instant> placements = DayShape.placements(day, zone, ordersPerDay, random);
                for (int from = 0; from < placements.size(); from += batch) {
                    List<Map<String, Object>> body = new ArrayList<>();
                    for (Instant placedAt : placements.subList(from, Math.min(placements.size(), from + batch))) {
                        body.add(importedOrder(placedAt, orders.next()));
                        perHour[placedAt.atZone(zone).getHour()]++;
                    }
                    imported += send(orderService, body, day);
                    bar.stepTo(imported);
                    bar.setExtraMessage(" " + day);
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        out.printf("Imported %,d orders in %.1f s (%,.0f orders/s).%n%n", imported, seconds, imported / seconds);
        out.println("Orders per hour of the day (" + zone + "), all days together:");
        out.print(HourChart.render(perHour));
        out.println();
        out.println("Replay one of these days: ./demo replay " + yesterday + (zone.getId().equals("UTC") ? "" : " --zone " + zone));
        out.flush();
        return 0;
    }

    static Map<String, Object> importedOrder(Instant placedAt, OrderRequest request) {
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("placedAt", placedAt.toString());
        order.put("kitchenId", request.kitchenId());
        order.put("customerId", request.customerId());
        order.put("items", request.items());
        order.put("deliveryAddress", request.deliveryAddress());
        order.put("notes", request.notes());
        return order;
    }

    /** One batch, all or nothing; retried (bounded) when the service is busy or briefly away. */
    private long send(ServiceClient orderService, List<Map<String, Object>> body, LocalDate day) {
        DemoException last = null;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                JsonNode answer = orderService.post("/admin/orders/import", body, true);
                long imported = ServiceClient.number(answer, "imported");
                if (imported != body.size()) {
                    throw new DemoException("order-service imported " + imported + " of a batch of " + body.size()
                            + " orders of " + day + "; the import is meant to be all or nothing");
                }
                return imported;
            }
            catch (DemoException ex) {
                if (!ex.retryable() || attempt == ATTEMPTS) {
                    throw new DemoException("backfill stopped at " + day + ": " + ex.getMessage()
                            + (attempt > 1 ? " (after " + attempt + " attempts)" : ""));
                }
                last = ex;
                Pause.sleep(Duration.ofSeconds(1L << (attempt - 1)));
            }
        }
        throw last == null ? new DemoException("backfill failed") : last;
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
