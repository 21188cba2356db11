package dev.lunchrush.scenarios;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.testing.Browsers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The accountant's corrected report: past days imported into the log with their real timestamps and
 * today's live orders are read by the analytics dashboard as they come; a replay of a day, seeking
 * the log by timestamp, gives exactly the dashboard's numbers for that day (total, per kitchen, per
 * hour, per dish), in UTC and in a zone whose days start at a quarter past the UTC hour.
 */
@SideBySide
class ReplayMatchesDashboardScenarioTests {

    private static final ZoneId OTHER_ZONE = ZoneId.of("Asia/Kathmandu"); // UTC+05:45
    private static final int IMPORTED_ORDERS = 900;
    private static final int LIVE_ORDERS = 150;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "analytics-dashboard", "report-replayer")
            .inAct("{\"act\":\"log\"}");

    @BeforeAll
    static void fastDashboard() {
        // the slow job's pace is not what this test is about
        stack.dashboardCapacity(5000);
    }

    @Test
    void aReplayedDayEqualsWhatTheDashboardCountedLiveInUtcAndInAnotherZone() {
        Menu menu = Orders.menu(stack);
        LocalDate pastDay = LocalDate.now(ZoneOffset.UTC).minusDays(3);

        // Past orders over three UTC days around the chosen day, plus orders right on the day's edges in
        // both zones: the last millisecond before midnight and midnight itself.
        List<Orders.Placed> imported = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(42);
        List<OrderRequest> requests = Orders.random(menu, IMPORTED_ORDERS, 43L);
        Instant from = pastDay.minusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        long span = Duration.ofDays(3).toMillis();
        for (OrderRequest request : requests) {
            imported.add(new Orders.Placed(request, null, from.plusMillis(random.nextLong(span)), request.kitchenId(), 0));
        }
        List<OrderRequest> edges = Orders.random(menu, 8, 44L);
        int edge = 0;
        for (ZoneId zone : List.of(ZoneOffset.UTC, OTHER_ZONE)) {
            for (LocalDate midnight : List.of(pastDay, pastDay.plusDays(1))) {
                Instant start = midnight.atStartOfDay(zone).toInstant();
                for (Instant placedAt : List.of(start.minusMillis(1), start)) {
                    OrderRequest request = edges.get(edge++);
                    imported.add(new Orders.Placed(request, null, placedAt, request.kitchenId(), 0));
                }
            }
        }
        for (int i = 0; i < imported.size(); i += 300) {
            List<Map<String, Object>> batch = new ArrayList<>();
            for (Orders.Placed order : imported.subList(i, Math.min(imported.size(), i + 300))) {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("placedAt", order.placedAt().truncatedTo(ChronoUnit.MILLIS).toString());
                json.put("kitchenId", order.request().kitchenId());
                json.put("customerId", order.request().customerId());
                json.put("items", order.request().items());
                json.put("deliveryAddress", order.request().deliveryAddress());
                json.put("notes", order.request().notes());
                batch.add(json);
            }
            JsonNode answer = Stack.JSON.readTree(stack.admin("POST", "order-service", "/admin/orders/import",
                    Stack.JSON.writeValueAsString(batch)).body());
            assertThat(answer.path("imported").asInt()).isEqualTo(batch.size());
        }

        // Today's live orders, through the real intake.
        List<Orders.Placed> live = Orders.place(stack, Orders.random(menu, LIVE_ORDERS, 45L), 100, 4);
        long all = imported.size() + live.size();
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(250)).until(() ->
                stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong() >= all);
        assertThat(stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong()).isEqualTo(all);

        List<Orders.Placed> everything = new ArrayList<>(imported);
        everything.addAll(live);
        for (ZoneId zone : List.of(ZoneOffset.UTC, OTHER_ZONE)) {
            Map<LocalDate, Orders.Day> truth = Orders.days(everything, zone);
            java.util.Set<LocalDate> days = new java.util.TreeSet<>();
            days.add(pastDay);
            live.forEach(order -> days.add(order.placedAt().atZone(zone).toLocalDate()));
            for (LocalDate day : days) {
                Orders.Day expected = truth.getOrDefault(day, Orders.Day.empty());
                Orders.Day dashboard = Orders.Day.of(stack.getJson("analytics-dashboard",
                        "/api/days/" + day + "?zone=" + zone.getId()));
                Orders.Day replayed = replay(day, zone);
                assertThat(dashboard).as("dashboard's %s in %s", day, zone).isEqualTo(expected);
                assertThat(replayed).as("replayed %s in %s", day, zone).isEqualTo(dashboard);
            }
        }
        reportPageForTheReadme(pastDay);
    }

    /** The replayer's page of the replayed day, as the README shows it: {@code docs/images/report-replayer-report.png}. */
    private static void reportPageForTheReadme(LocalDate day) {
        ChromeDriver browser = Browsers.headlessChromium();
        try {
            browser.manage().window().setSize(new Dimension(1400, 1300));
            browser.get(stack.uri("report-replayer", "/?date=" + day + "&zone=" + ZoneOffset.UTC.getId()).toString());
            // the page opens on the report of ?date=…&zone=… once its list has loaded, and draws its charts
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> Boolean.TRUE.equals(
                    browser.executeScript("return !!(window.Chart && Chart.getChart('per-hour'));")));
            Thread.sleep(1500); // the charts' animation
            Browsers.screenshot(browser, "report-replayer-report");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        finally {
            browser.quit();
        }
    }

    /** Starts a replay of the day, waits until it is done, and returns its report's numbers. */
    private static Orders.Day replay(LocalDate day, ZoneId zone) {
        JsonNode started = Stack.JSON.readTree(stack.admin("POST", "report-replayer", "/admin/replays",
                "{\"date\":\"" + day + "\",\"zone\":\"" + zone.getId() + "\"}").body());
        String id = started.path("id").asString();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
            String state = stack.getJson("report-replayer", "/api/replays/" + id).path("state").asString();
            assertThat(state).as("replay %s of %s in %s", id, day, zone).isNotEqualTo("FAILED");
            return "DONE".equals(state);
        });
        return Orders.Day.of(stack.getJson("report-replayer", "/api/reports/" + day + "?zone=" + zone.getId()));
    }
}
