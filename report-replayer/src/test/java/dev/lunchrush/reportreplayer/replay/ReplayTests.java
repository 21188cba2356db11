package dev.lunchrush.reportreplayer.replay;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.test.web.server.LocalServerPort;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.Topology;
import dev.lunchrush.reportreplayer.ReplayerOnBrokersTest;
import dev.lunchrush.reportreplayer.TestLog;
import dev.lunchrush.testing.Browsers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Replays against a real Kafka broker, with orders of chosen timestamps in the log. */
@ReplayerOnBrokersTest
class ReplayTests {

    private static final Logger log = LoggerFactory.getLogger(ReplayTests.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final LocalDate TODAY = LocalDate.now(ZoneOffset.UTC);
    private static final List<Kitchen> KITCHENS = List.of(
            new Kitchen("k1", List.of("pad-thai", "green-curry", "spring-rolls")),
            new Kitchen("k2", List.of("margherita", "calzone", "tiramisu")),
            new Kitchen("k3", List.of("ramen", "gyoza", "udon", "edamame")));

    @LocalServerPort
    int port;

    @BeforeAll
    static void topic() throws Exception {
        TestLog.ensureTopic();
    }

    @Test
    void replayedReportOfAKnownDayIsExactAndLeavesTheLiveGroupsAlone() throws Exception {
        LocalDate day = TODAY.minusDays(3);
        Instant start = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        Random samples = new Random(42);
        Random random = new Random(7);
        int count = 20_000;
        Expected expected = new Expected();
        try (KafkaProducer<String, byte[]> producer = TestLog.producer()) {
            // the neighbours, a millisecond outside the day on each side
            producer.send(TestLog.record(order("k1", start.minusMillis(1), 1)));
            producer.send(TestLog.record(order("k2", start.plus(Duration.ofDays(1)), 1)));
            for (int i = 0; i < count; i++) {
                OrderRequest request = sampleOrder(samples);
                Instant placedAt = start.plusMillis((long) (random.nextDouble() * Duration.ofDays(1).toMillis()));
                OrderEvent order = new OrderEvent(UUID.randomUUID().toString(), placedAt, request.kitchenId(),
                        request.customerId(), request.items(), request.deliveryAddress(), request.notes(),
                        OrderEvent.ORIGIN_IMPORT, "backfill", 0);
                expected.add(order);
                producer.send(TestLog.record(order));
            }
            // a poison record inside the day: counted, skipped
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(Topology.ORDERS_TOPIC, null,
                    start.plusSeconds(3600).toEpochMilli(), "k1", "not an order".getBytes()));
            producer.flush();
        }
        // the live readers have read part of the log
        Map<TopicPartition, Long> committed = new HashMap<>();
        for (int p = 0; p < Topology.ORDERS_PARTITIONS; p++) {
            committed.put(new TopicPartition(Topology.ORDERS_TOPIC, p), 3L + p);
        }
        TestLog.commit(Topology.KITCHEN_GROUP, committed);
        TestLog.commit(Topology.ANALYTICS_GROUP, committed);
        Set<String> groupsBefore = groups();

        HttpResponse<String> started = TestLog.asAdmin(port, "POST", "/admin/replays", "{\"date\":\"" + day + "\",\"zone\":\"UTC\"}");
        assertThat(started.statusCode()).isEqualTo(202);
        JsonNode status = JSON.readTree(started.body());
        assertThat(status.path("state").asString()).isEqualTo("RUNNING");
        assertThat(status.path("expected").asLong()).isGreaterThanOrEqualTo(count + 1);
        String id = status.path("id").asString();
        assertThat(started.headers().firstValue("Location")).hasValue("/api/replays/" + id);

        // the same day again while it runs: refused, nothing started
        HttpResponse<String> again = TestLog.asAdmin(port, "POST", "/admin/replays", "{\"date\":\"" + day + "\",\"zone\":\"UTC\"}");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(JSON.readTree(again.body()).path("replayId").asString()).isEqualTo(id);

        JsonNode done = awaitDone(id);
        assertThat(done.path("state").asString()).isEqualTo("DONE");
        assertThat(done.path("read").asLong()).isEqualTo(done.path("expected").asLong());
        assertThat(done.path("ordersFound").asLong()).isEqualTo(count);
        assertThat(done.path("poisonRecords").asLong()).isEqualTo(1);
        log.info("replay of {} records: {} records/s", done.path("read").asLong(), done.path("ratePerSecond").asDouble());

        JsonNode report = JSON.readTree(TestLog.get(port, "/api/reports/" + day + "?zone=UTC").body());
        assertThat(report.path("date").asString()).isEqualTo(day.toString());
        assertThat(report.path("zone").asString()).isEqualTo("UTC");
        assertThat(report.path("totalOrders").asLong()).isEqualTo(count);
        assertThat(map(report.path("ordersPerKitchen"))).isEqualTo(expected.perKitchen);
        assertThat(map(report.path("ordersPerHour"))).isEqualTo(expected.perHour());
        assertThat(map(report.path("portionsPerDish"))).isEqualTo(expected.perDish);
        assertThat(report.path("totalPortions").asLong()).isEqualTo(expected.portions);
        assertThat(report.path("distinctCustomers").asLong()).isEqualTo(expected.customers.size());
        assertThat(report.path("firstOrderAt").asString()).isEqualTo(expected.first.toString());
        assertThat(report.path("lastOrderAt").asString()).isEqualTo(expected.last.toString());
        assertThat(report.path("averageItemsPerOrder").asDouble()).isEqualTo((double) expected.portions / count);

        // the replay joined no group and moved no one's offsets
        try (Admin admin = TestLog.admin()) {
            for (String group : List.of(Topology.KITCHEN_GROUP, Topology.ANALYTICS_GROUP)) {
                Map<TopicPartition, OffsetAndMetadata> after = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
                Map<TopicPartition, Long> offsets = new HashMap<>();
                after.forEach((partition, offset) -> offsets.put(partition, offset.offset()));
                assertThat(offsets).isEqualTo(committed);
            }
        }
        assertThat(groups()).isEqualTo(groupsBefore);

        // listed, and as CSV
        JsonNode reports = JSON.readTree(TestLog.get(port, "/api/reports").body());
        assertThat(reports.valueStream().map(r -> r.path("date").asString() + " " + r.path("zone").asString()))
                .contains(day + " UTC");
        HttpResponse<String> csv = TestLog.get(port, "/api/reports/" + day + ".csv?zone=UTC");
        assertThat(csv.statusCode()).isEqualTo(200);
        assertThat(csv.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/csv"));
        assertThat(csv.body()).startsWith("section,kitchen,key,value\n")
                .contains("\ntotalOrders,,," + count + "\n")
                .contains("\nordersPerKitchen,k1,," + expected.perKitchen.get("k1") + "\n")
                .contains("\nordersPerHour,,12," + expected.perHour().get("12") + "\n");

        // progress as metrics
        String scrape = TestLog.get(port, "/actuator/prometheus").body();
        assertThat(metric(scrape, "replay_running")).isZero();
        assertThat(metric(scrape, "replay_completed_total\\{[^}]*state=\"DONE\"")).isGreaterThanOrEqualTo(1);
        assertThat(scrape).contains("replay_events_read", "replay_events_expected", "replay_rate_events_per_second");
    }

    @Test
    void dayBoundariesFollowTheZonesMidnight() throws Exception {
        LocalDate day = TODAY.minusDays(6);
        Instant midnight = day.atStartOfDay(PARIS).toInstant();
        Instant nextMidnight = day.plusDays(1).atStartOfDay(PARIS).toInstant();
        try (KafkaProducer<String, byte[]> producer = TestLog.producer()) {
            producer.send(TestLog.record(order("k1", midnight.minusMillis(1), 1)));      // 23:59:59.999 the day before
            producer.send(TestLog.record(order("k1", midnight, 2)));                     // 00:00:00.000
            producer.send(TestLog.record(order("k2", day.atTime(12, 21, 7, 120_000_000).atZone(PARIS).toInstant(), 3)));
            producer.send(TestLog.record(order("k3", day.atTime(LocalTime.of(12, 40)).atZone(PARIS).toInstant(), 1)));
            producer.send(TestLog.record(order("k3", nextMidnight.minusMillis(1), 4)));  // 23:59:59.999
            producer.send(TestLog.record(order("k2", nextMidnight, 5)));                 // 00:00:00.000 the day after
            producer.flush();
        }
        JsonNode report = replay(day, "Europe/Paris");
        assertThat(report.path("totalOrders").asLong()).isEqualTo(4);
        assertThat(map(report.path("ordersPerKitchen"))).isEqualTo(Map.of("k1", 1L, "k2", 1L, "k3", 2L));
        Map<String, Long> hours = map(report.path("ordersPerHour"));
        assertThat(hours).hasSize(24).containsEntry("00", 1L).containsEntry("12", 2L).containsEntry("23", 1L);
        assertThat(hours.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(4);
        assertThat(map(report.path("portionsPerDish"))).isEqualTo(Map.of("pad-thai", 10L));
        assertThat(report.path("firstOrderAt").asString()).isEqualTo(midnight.toString());
        assertThat(report.path("lastOrderAt").asString()).isEqualTo(nextMidnight.minusMillis(1).toString());

        JsonNode before = replay(day.minusDays(1), "Europe/Paris");
        assertThat(before.path("totalOrders").asLong()).isEqualTo(1);
        assertThat(map(before.path("ordersPerHour"))).containsEntry("23", 1L);
        JsonNode after = replay(day.plusDays(1), "Europe/Paris");
        assertThat(after.path("totalOrders").asLong()).isEqualTo(1);
        assertThat(map(after.path("ordersPerHour"))).containsEntry("00", 1L);
    }

    @Test
    void aDayWithoutOrdersGivesAnEmptyReport() throws Exception {
        JsonNode report = replay(TODAY.minusDays(9), "Europe/Paris");
        assertThat(report.path("totalOrders").asLong()).isZero();
        assertThat(map(report.path("ordersPerHour"))).hasSize(24).allSatisfy((hour, count) -> assertThat(count).isZero());
        assertThat(map(report.path("ordersPerKitchen"))).isEmpty();
        assertThat(map(report.path("portionsPerDish"))).isEmpty();
        assertThat(report.path("firstOrderAt").isNull()).isTrue();
    }

    @Test
    void refusesWhatCannotBeReplayedAndStartsNothing() throws Exception {
        int before = JSON.readTree(TestLog.get(port, "/api/replays").body()).size();
        assertInvalid("{\"date\":\"2026-13-45\",\"zone\":\"UTC\"}", "date", "not a date");
        assertInvalid("{\"date\":\"26/11/2026\"}", "date", "yyyy-MM-dd");
        assertInvalid("{\"zone\":\"UTC\"}", "date", "required");
        assertInvalid("{\"date\":\"" + TODAY.minusDays(1) + "\",\"zone\":\"Mars/Olympus\"}", "zone", "not a known time zone");
        assertInvalid("{\"date\":\"" + TODAY.plusDays(2) + "\",\"zone\":\"UTC\"}", "date", "future");
        assertInvalid("{\"date\":\"" + TODAY.minusDays(20) + "\",\"zone\":\"UTC\"}", "date", "retention");

        HttpResponse<String> unreadable = TestLog.asAdmin(port, "POST", "/admin/replays", "{\"date\":");
        assertThat(unreadable.statusCode()).isEqualTo(400);

        String body = "{\"date\":\"" + TODAY.minusDays(1) + "\"}";
        assertThat(TestLog.call(port, "POST", "/admin/replays", body, null, null).statusCode()).isEqualTo(401);
        assertThat(TestLog.call(port, "POST", "/admin/replays", body, "viewer", TestLog.VIEWER_PASSWORD).statusCode()).isEqualTo(403);
        assertThat(TestLog.call(port, "POST", "/admin/replays", body, "admin", "wrong").statusCode()).isEqualTo(401);

        assertThat(JSON.readTree(TestLog.get(port, "/api/replays").body()).size()).isEqualTo(before);
        assertThat(TestLog.get(port, "/api/replays/nope").statusCode()).isEqualTo(404);
        assertThat(TestLog.get(port, "/api/reports/2001-01-01?zone=UTC").statusCode()).isEqualTo(404);
        assertThat(TestLog.get(port, "/api/reports/yesterday").statusCode()).isEqualTo(400);
    }

    @Test
    void thePageDrawsTheReportsCharts() throws Exception {
        LocalDate day = TODAY.minusDays(12);
        Instant start = day.atStartOfDay(ZoneOffset.UTC).toInstant();
        try (KafkaProducer<String, byte[]> producer = TestLog.producer()) {
            producer.send(TestLog.record(order("k1", start.plus(Duration.ofMinutes(8 * 60 + 15)), 2)));
            producer.send(TestLog.record(order("k2", start.plus(Duration.ofMinutes(12 * 60 + 30)), 1)));
            producer.send(TestLog.record(order("k2", start.plus(Duration.ofMinutes(12 * 60 + 45)), 3)));
            producer.flush();
        }
        JsonNode report = replay(day, "UTC");
        String id = report.path("replay").path("replayId").asString();
        ChromeDriver browser = Browsers.headlessChromium();
        try {
            browser.get("http://localhost:" + port + "/?date=" + day + "&zone=UTC");
            String hours = "0,0,0,0,0,0,0,0,1,0,0,0,2,0,0,0,0,0,0,0,0,0,0,0";
            await().atMost(Duration.ofSeconds(120)).until(() -> chart(browser, "per-hour"), hours::equals);
            assertThat(chart(browser, "per-kitchen")).isEqualTo("k1,k2=1,2");
            assertThat(chart(browser, "per-dish")).isEqualTo("pad-thai=6");
            // the replays table is fed by server-sent events
            await().atMost(Duration.ofSeconds(60)).until(() -> String.valueOf(browser.executeScript("return document.querySelector('#replays tbody').innerText")),
                    text -> text.contains(id) && text.contains("DONE"));
            assertThat(browser.findElement(By.id("report-title")).getText()).contains(day.toString());
        }
        finally {
            browser.quit();
        }
    }

    /** A chart's data as drawn: "v,v,..." for the hours, "labels=values" for the others. */
    private static String chart(ChromeDriver browser, String id) {
        Object drawn = browser.executeScript("const chart = window.Chart && Chart.getChart(arguments[0]);"
                + "if (!chart) return null;"
                + "const values = chart.data.datasets[0].data.join(',');"
                + "return arguments[0] === 'per-hour' ? values : chart.data.labels.join(',') + '=' + values;", id);
        return drawn == null ? null : drawn.toString();
    }

    private void assertInvalid(String body, String field, String detail) throws Exception {
        HttpResponse<String> response = TestLog.asAdmin(port, "POST", "/admin/replays", body);
        assertThat(response.statusCode()).as(body).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(response.body());
        // every 400 names its fields in errors (a constraint of the body's record, or the service's own check)
        assertThat(problem.path("errors")).as(response.body()).hasSize(1);
        assertThat(problem.path("errors").get(0).path("field").asString()).isEqualTo(field);
        assertThat(problem.path("errors").get(0).path("message").asString()).contains(detail);
    }

    private JsonNode replay(LocalDate day, String zone) throws Exception {
        HttpResponse<String> started = TestLog.asAdmin(port, "POST", "/admin/replays", "{\"date\":\"" + day + "\",\"zone\":\"" + zone + "\"}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        JsonNode done = awaitDone(JSON.readTree(started.body()).path("id").asString());
        assertThat(done.path("state").asString()).as(done.toString()).isEqualTo("DONE");
        HttpResponse<String> report = TestLog.get(port, done.path("report").asString());
        assertThat(report.statusCode()).isEqualTo(200);
        return JSON.readTree(report.body());
    }

    private JsonNode awaitDone(String id) {
        return await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(100))
                .until(() -> JSON.readTree(TestLog.get(port, "/api/replays/" + id).body()),
                        status -> !status.path("state").asString().equals("RUNNING"));
    }

    private static Set<String> groups() throws Exception {
        try (Admin admin = TestLog.admin()) {
            Set<String> groups = new HashSet<>();
            for (GroupListing listing : admin.listGroups().all().get()) {
                groups.add(listing.groupId());
            }
            return groups;
        }
    }

    private static Map<String, Long> map(JsonNode node) {
        Map<String, Long> map = new TreeMap<>();
        node.properties().forEach(entry -> map.put(entry.getKey(), entry.getValue().asLong()));
        return map;
    }

    private static double metric(String scrape, String pattern) {
        Matcher matcher = Pattern.compile("(?m)^" + pattern + "[^\\n]* (\\S+)$").matcher(scrape);
        assertThat(matcher.find()).as(pattern + " in\n" + scrape).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    /** A kitchen of the day and the dishes it cooks. */
    private record Kitchen(String id, List<String> dishes) {
    }

    /** A random order of one kitchen: a few of its dishes, one to three portions each, a customer, an address. */
    private static OrderRequest sampleOrder(Random random) {
        Kitchen kitchen = KITCHENS.get(random.nextInt(KITCHENS.size()));
        Map<String, Integer> portions = new LinkedHashMap<>();
        int lines = 1 + random.nextInt(kitchen.dishes().size());
        for (int i = 0; i < lines; i++) {
            String dish = kitchen.dishes().get(random.nextInt(kitchen.dishes().size()));
            portions.merge(dish, 1 + random.nextInt(3), Integer::sum);
        }
        List<OrderItem> items = portions.entrySet().stream()
                .map(portion -> new OrderItem(portion.getKey(), portion.getValue())).toList();
        return new OrderRequest(kitchen.id(), "c-" + (1000 + random.nextInt(90_000)), items,
                (1 + random.nextInt(180)) + " Mill Lane", "Please ring the bell twice.");
    }

    private static OrderEvent order(String kitchen, Instant placedAt, int portions) {
        return new OrderEvent(UUID.randomUUID().toString(), TestLog.millis(placedAt), kitchen, "c-" + portions,
                List.of(new OrderItem("pad-thai", portions)), "1 Mill Lane", null, OrderEvent.ORIGIN_IMPORT, "test", 0);
    }

    /** The same figures, added up independently of the replayer. */
    private static final class Expected {
        final Map<String, Long> perKitchen = new TreeMap<>();
        final long[] hours = new long[24];
        final Map<String, Long> perDish = new TreeMap<>();
        final Set<String> customers = new HashSet<>();
        long portions;
        Instant first;
        Instant last;

        void add(OrderEvent order) {
            perKitchen.merge(order.kitchenId(), 1L, Long::sum);
            hours[order.placedAt().atZone(ZoneOffset.UTC).getHour()]++;
            order.items().forEach(item -> perDish.merge(item.dish(), (long) item.quantity(), Long::sum));
            portions += order.portions();
            customers.add(order.customerId());
            first = first == null || order.placedAt().isBefore(first) ? order.placedAt() : first;
            last = last == null || order.placedAt().isAfter(last) ? order.placedAt() : last;
        }

        Map<String, Long> perHour() {
            Map<String, Long> map = new TreeMap<>();
            for (int hour = 0; hour < 24; hour++) {
                map.put(String.format("%02d", hour), hours[hour]);
            }
            return map;
        }
    }
}
