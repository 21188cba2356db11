package dev.lunchrush.loadgenerator.backfill;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.loadgenerator.Demo;
import dev.lunchrush.loadgenerator.ServiceClient;
import dev.lunchrush.loadgenerator.StubService;

import static org.assertj.core.api.Assertions.assertThat;

class BackfillTests {

    private static final String MENU = """
            {"kitchens":[{"id":"k1","name":"Noodle Bar","dishes":["pad-thai","ramen","gyoza"]},
                         {"id":"k2","name":"Pizza","dishes":["margherita","calzone"]}]}""";

    private static long[] perHour(List<Instant> instants, ZoneId zone) {
        long[] hours = new long[24];
        instants.forEach(instant -> hours[instant.atZone(zone).getHour()]++);
        return hours;
    }

    @Test
    void aDayHasExactlyTheAskedOrdersWithTheLunchPeakOnTopAndAnEveningPeak() {
        ZoneId utc = ZoneId.of("UTC");
        LocalDate day = LocalDate.of(2026, 11, 26);
        List<Instant> instants = DayShape.placements(day, utc, 20_000, new Random(7));

        assertThat(instants).hasSize(20_000).isSorted();
        assertThat(instants).allSatisfy(instant -> assertThat(instant.atZone(utc).toLocalDate()).isEqualTo(day));
        long[] hours = perHour(instants, utc);
        long busiest = 0;
        for (int hour = 0; hour < 24; hour++) {
            if (hours[hour] > hours[(int) busiest]) {
                busiest = hour;
            }
        }
        assertThat(busiest).isEqualTo(12);
        // lunch is several times a quiet afternoon hour, and the evening peak stands above its neighbours
        assertThat(hours[12]).isGreaterThan(4 * hours[15]);
        assertThat(hours[19]).isGreaterThan(hours[16]).isGreaterThan(hours[22]);
        assertThat(hours[3]).isLessThan(hours[12] / 50);
        // half of the lunch hour's orders fall in the lesson's rush, 12:20-12:35
        long rush = instants.stream().map(instant -> instant.atZone(utc).toLocalTime())
                .filter(time -> time.getHour() == 12 && time.getMinute() >= 20 && time.getMinute() < 35).count();
        assertThat((double) rush / hours[12]).isBetween(0.55, 0.70);
    }

    @Test
    void hoursAreLocalAndADstDayKeepsTheTotal() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        LocalDate shortDay = LocalDate.of(2026, 3, 29);
        List<Instant> instants = DayShape.placements(shortDay, paris, 10_001, new Random(3));

        assertThat(instants).hasSize(10_001);
        assertThat(instants).allSatisfy(instant -> assertThat(instant.atZone(paris).toLocalDate()).isEqualTo(shortDay));
        long[] hours = perHour(instants, paris);
        assertThat(hours[2]).isZero(); // 02:00-02:59 does not exist that day in Paris
        assertThat(hours[12]).isEqualTo(java.util.Arrays.stream(hours).max().orElseThrow());
    }

    @Test
    void importsPastDaysInBatchesOfAtMost1000AsTheAdmin() throws Exception {
        AtomicInteger imports = new AtomicInteger();
        try (StubService orderService = new StubService(request -> switch (request.path()) {
            case "/menu" -> new StubService.Answer(200, MENU);
            case "/admin/orders/import" -> {
                // the first import is refused once as unavailable: the batch is sent again
                if (imports.getAndIncrement() == 0) {
                    yield new StubService.Answer(503, "{\"detail\":\"Kafka is away\"}");
                }
                int size = ServiceClient.JSON.readTree(request.body()).size();
                yield new StubService.Answer(200, "{\"imported\":" + size + "}");
            }
            default -> new StubService.Answer(404, "");
        })) {
            StringWriter out = new StringWriter();
            CommandLine commandLine = Demo.commandLine();
            commandLine.setOut(new PrintWriter(out, true));
            int exit = commandLine.execute("backfill", "--days", "2", "--orders-per-day", "1500", "--zone", "Europe/Paris",
                    "--seed", "1", "--order-service", orderService.url());

            assertThat(exit).isEqualTo(0);
            List<StubService.Request> batches = orderService.requests().stream()
                    .filter(request -> request.path().equals("/admin/orders/import")).toList();
            assertThat(batches).hasSize(5);
            assertThat(batches).allSatisfy(batch -> assertThat(batch.authorization())
                    .isEqualTo(ServiceClient.basic("admin", "test-admin-secret")));
            long total = 0;
            Instant now = Instant.now();
            LocalDate today = LocalDate.now(ZoneId.of("Europe/Paris"));
            for (StubService.Request batch : batches.subList(1, batches.size())) {
                JsonNode orders = ServiceClient.JSON.readTree(batch.body());
                assertThat(orders.size()).isLessThanOrEqualTo(1000);
                total += orders.size();
                for (JsonNode order : orders) {
                    Instant placedAt = Instant.parse(order.path("placedAt").asString());
                    assertThat(placedAt).isBefore(now);
                    assertThat(placedAt.atZone(ZoneId.of("Europe/Paris")).toLocalDate())
                            .isBetween(today.minusDays(2), today.minusDays(1));
                    assertThat(order.path("items").size()).isPositive();
                    assertThat(order.path("kitchenId").asString()).isIn("k1", "k2");
                }
            }
            assertThat(total).isEqualTo(3000);
            assertThat(batches.get(0).body()).isEqualTo(batches.get(1).body());
            assertThat(out.toString()).contains("Imported 3,000 orders").contains("12:00");
        }
    }

    @Test
    void refusesMoreDaysThanTheLogKeeps() {
        StringWriter err = new StringWriter();
        CommandLine commandLine = Demo.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        assertThat(commandLine.execute("backfill", "--days", "30", "--orders-per-day", "10", "--order-service",
                "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(err.toString()).contains("--days must be between 1 and 13");
        assertThat(commandLine.execute("backfill", "--days", "1", "--orders-per-day", "10", "--zone", "Mars/Olympus",
                "--order-service", "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(err.toString()).contains("'Mars/Olympus' is not a time zone");
    }
}
