package dev.lunchrush.scenarios;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.testing.Browsers;
import dev.lunchrush.testing.FreePorts;
import dev.lunchrush.testing.ServiceProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The control room in a real browser (Debian's Chromium) against the packaged services on real brokers: for each act,
 * the admin switches the act and starts a short scaled rush from the page, and the test reads the page's closing
 * table (act 1's shares, act 2's backlog, act 3 {@code drop}'s accounting and {@code unbounded}'s death, act 4's
 * backlog and catch-up); a viewer without the password sees every figure and no enabled control. One stack for all;
 * the order service in a small heap (40 MB, the stack's collector), so that act 3's unbounded feed kills it within a
 * minute, as the page predicts: that act comes last.
 * Each act's page is saved under {@code docs/images/} for the README.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControlRoomScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(ControlRoomScenarioTests.class);

    private static final Duration RUSH_TIMEOUT = Duration.ofMinutes(2);
    /** The unbounded feed's death: about 30 s of the feed's growth, longer where the machine cannot send 500/s. */
    private static final Duration DEATH_TIMEOUT = Duration.ofMinutes(5);

    @RegisterExtension
    static final Stack stack = stack();

    private static ChromeDriver browser;

    /** The stack, the control room told where the others are and where its {@code .run} folder is. */
    private static Stack stack() {
        Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard", "backlog-monitor", "control-room")
                // the stack's collector (infra/jvm/order-service.env), the feed's pages in the old generation, whose
                // room over what the service keeps alive the unbounded feed fills within a minute; the control room
                // predicts the death from that room
                .jvm("order-service", List.of("-Xmx40m", "-Xms40m", "-Xmn6m", "-XX:+UseSerialGC",
                        "-XX:PretenureSizeThreshold=512k", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1"))
                .jvm("control-room", List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                        "-XX:+ExitOnOutOfMemoryError"))
                .inAct("{\"act\":\"shared-queue\"}");
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("LUNCHRUSH_HOME", home(stack).toAbsolutePath().toString());
        environment.put("LUNCHRUSH_KITCHEN_SCREEN_URL", stack.uri("kitchen-screen", "").toString());
        environment.put("LUNCHRUSH_ANALYTICS_DASHBOARD_URL", stack.uri("analytics-dashboard", "").toString());
        environment.put("LUNCHRUSH_BACKLOG_MONITOR_URL", stack.uri("backlog-monitor", "").toString());
        // nothing listens there: no Prometheus in this test, and none of another stack's alerts
        environment.put("LUNCHRUSH_PROMETHEUS_URL", "http://127.0.0.1:" + FreePorts.next());
        environment.put("LUNCHRUSH_REPORT_REPLAYER_URL", "http://127.0.0.1:" + FreePorts.next());
        return stack.environment("control-room", environment);
    }

    /** The control room's {@code LUNCHRUSH_HOME}: where it finds the order service's pid, as {@code ./demo up} leaves it. */
    private static Path home(Stack stack) {
        try {
            return Files.createDirectories(stack.dataRoot().resolve("demo-home").resolve(".run")).getParent();
        }
        catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    @BeforeAll
    static void openTheBrowser() throws IOException {
        Rush.registerOrderService(stack, home(stack));
        browser = Browsers.headlessChromium();
    }

    @AfterAll
    static void closeTheBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    @Order(1)
    void aViewerWithoutThePasswordSeesTheLessonAndNoEnabledControl() {
        open();
        await().atMost(Duration.ofSeconds(30)).until(() -> text("act-name").equals("shared-queue")
                && browser.findElements(By.cssSelector("#services li.ready")).size() == 4);
        assertThat(text("who")).contains("read-only");
        List<WebElement> controls = browser.findElements(By.cssSelector("input, select, button"));
        assertThat(controls.stream().filter(WebElement::isDisplayed)).as("controls a viewer sees").isNotEmpty()
                .allSatisfy(control -> assertThat(control.isEnabled()).as("%s enabled", control.getAttribute("id")).isFalse());
        // and the API refuses what the page does not offer
        HttpResponse<String> anonymous = stack.post("control-room", "/api/rushes", "{\"rate\":10,\"duration\":\"1s\"}", Map.of());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        screenshot("control-room-viewer");
    }

    @Test
    @Order(2)
    void actOneSharesTheQueueBetweenTheReaders() {
        signIn();
        switchAct("shared-queue", null, null);
        Map<String, Row> table = rush("constant", Map.of("rate", "50", "duration", "8s", "dashboardCapacity", "1000"));
        assertThat(table.get("kitchen screen's share").measured()).isBetween(40.0, 60.0);
        assertThat(table.get("analytics dashboard's share").measured()).isBetween(40.0, 60.0);
        assertThat(table.get("kitchen screen's share").verdict()).isIn("holds", "close");
        // between them the readers got every order placed (and those whose answer timed out, written all the same)
        WebElement readers = browser.findElement(By.id("readers-at-end"));
        assertThat(Long.parseLong(readers.getAttribute("data-kitchen")) + Long.parseLong(readers.getAttribute("data-dashboard")))
                .as(readers.getText()).isGreaterThanOrEqualTo(Long.parseLong(readers.getAttribute("data-placed")));
        screenshot("control-room-act1");
        pageShot("kitchen-screen", "kitchen-screen-act1", By.cssSelector("#missing-orders li"));
    }

    @Test
    @Order(3)
    void actTwoKeepsTheSlowReadersBacklogInTheBroker() {
        switchAct("queue-per-reader", null, null);
        ChromeDriver backlog = watching("backlog-monitor");
        Map<String, Row> table = slowReaderRush("12s");
        assertThat(table.get("kitchen's queue, end of the rush").measured()).isLessThan(50);
        screenshot("control-room-act2");
        pageShot("analytics-dashboard", "analytics-dashboard-act2", By.id("received"));
        shotAndClose(backlog, "backlog-monitor-act2");
    }

    @Test
    @Order(4)
    void actThreeDropAccountsForEveryOrder() {
        switchAct("memory-feed", "drop", 200);
        Map<String, Row> table = rush("constant", Map.of("rate", "150", "duration", "8s", "dashboardCapacity", "50"));
        assertThat(table).containsKey("surplus rate (in − out)");
        WebElement accounting = browser.findElement(By.id("accounting"));
        assertThat(accounting.isDisplayed()).isTrue();
        long placed = Long.parseLong(accounting.getAttribute("data-placed"));
        long delivered = Long.parseLong(accounting.getAttribute("data-delivered"));
        long dropped = Long.parseLong(accounting.getAttribute("data-dropped"));
        long buffered = Long.parseLong(accounting.getAttribute("data-buffered"));
        long before = Long.parseLong(accounting.getAttribute("data-buffered-at-start"));
        log.info("drop: placed {} = delivered {} + dropped {} + buffered {} - {} before", placed, delivered, dropped, buffered, before);
        assertThat(placed).isGreaterThan(1000);
        assertThat(dropped).as("dropped, the feed holding 200").isGreaterThan(placed / 3);
        assertThat(buffered).isLessThanOrEqualTo(200);
        assertThat(delivered + dropped + buffered - before).isEqualTo(placed);
        assertThat(accounting.getText()).contains("every order accounted for");
        screenshot("control-room-act3-drop");
    }

    @Test
    @Order(5)
    void actFourKeepsTheBacklogInTheLogAndCatchesUp() {
        switchAct("log", null, null);
        ChromeDriver backlog = watching("backlog-monitor");
        Map<String, Row> table = slowReaderRush("16s");
        Row catchUp = table.get("time to catch up");
        assertThat(catchUp.predicted()).isCloseTo(400 / 30.0, org.assertj.core.data.Offset.offset(0.2));
        assertThat(catchUp.measured()).as("seconds to catch up").isBetween(0.5 * 400 / 30, 1.5 * 400 / 30);
        assertThat(text("readers-at-end")).contains("each reader every order");
        screenshot("control-room-act4");
        shotAndClose(backlog, "backlog-monitor-act4");
    }

    @Test
    @Order(6)
    void actThreeUnboundedKillsTheOrderServiceAndThePageSaysWhen() {
        switchAct("memory-feed", "unbounded", null);
        Map<String, Row> table = rush("constant", Map.of("rate", "500", "duration", "4m", "dashboardCapacity", "50"),
                DEATH_TIMEOUT);
        ServiceProcess orderService = stack.service("order-service");
        assertThat(orderService.waitFor(Duration.ofSeconds(30))).as("the order service exited").isTrue();
        assertThat(orderService.log()).contains("OutOfMemoryError");
        WebElement death = browser.findElement(By.id("death"));
        assertThat(death.isDisplayed()).isTrue();
        assertThat(death.getText()).contains("The order service DIED at 12:").contains("Events that died with it");
        Row fill = table.get("time to fill the budget");
        assertThat(fill.measured()).as("seconds until it died").isBetween(2.0, 240.0);
        assertThat(fill.note()).startsWith("died at 12:");
        // the page's prediction: the old generation's room over the growth the service really took
        assertThat(fill.verdict()).as("the death, %s s, against %s s predicted", fill.measured(), fill.predicted())
                .isIn("holds", "close");
        JsonNode view = stack.getJson("control-room", "/api/rushes/" + rushId());
        assertThat(view.path("orderServiceDied").path("atSeconds").asDouble()).isEqualTo(Double.parseDouble(
                view.path("closingTable").get(2).path("measured").asString()), org.assertj.core.data.Offset.offset(0.1));
        assertThat(text("services")).contains("order-service: down");
        screenshot("control-room-act3-unbounded");
    }

    /**
     * 100/s for 8 s against a job of 50/s, then 20/s: 400 events behind at the end of the rush (predicted and, within a
     * quarter, measured), caught up at 30/s.
     */
    private static Map<String, Row> slowReaderRush(String after) {
        Map<String, Row> table = rush("custom", Map.of("rate", "100", "duration", "8s", "thenRate", "20",
                "thenDuration", after, "dashboardCapacity", "50"));
        Row backlog = table.get("backlog at the end of the rush");
        assertThat(backlog.predicted()).isEqualTo(400);
        assertThat(backlog.measured()).as("the dashboard's backlog at the end of the rush").isBetween(300.0, 500.0);
        return table;
    }

    // ------------------------------------------------------------------------------------------ the page

    private static void open() {
        browser.manage().window().setSize(new Dimension(1400, 2300));
        browser.get(stack.uri("control-room", "/").toString());
        await().atMost(Duration.ofSeconds(20)).until(() -> "live".equals(text("connection")));
    }

    private static void signIn() {
        browser.findElement(By.id("sign-in-link")).click();
        browser.findElement(By.id("password")).sendKeys(stack.adminPassword());
        browser.findElement(By.id("sign-in-button")).click();
        await().atMost(Duration.ofSeconds(10)).until(() -> text("who").startsWith("admin"));
        assertThat(browser.findElement(By.id("rush-button")).isEnabled()).isTrue();
    }

    private static void switchAct(String act, String strategy, Integer capacity) {
        new Select(browser.findElement(By.id("act-select"))).selectByValue(act);
        if (strategy != null) {
            new Select(browser.findElement(By.id("strategy-select"))).selectByValue(strategy);
        }
        if (capacity != null) {
            WebElement field = browser.findElement(By.id("capacity-input"));
            field.clear();
            field.sendKeys(String.valueOf(capacity));
        }
        browser.findElement(By.id("act-button")).click();
        await().atMost(Duration.ofSeconds(20)).until(() -> text("act-name").equals(act)
                && (strategy == null || text("act-detail").contains("strategy " + strategy)));
        assertThat(text("act-problem")).isEmpty();
    }

    /** Fills the rush form, starts the rush, waits for its closing table, and reads it by line name. */
    private static Map<String, Row> rush(String profile, Map<String, String> fields) {
        return rush(profile, fields, RUSH_TIMEOUT);
    }

    private static Map<String, Row> rush(String profile, Map<String, String> fields, Duration timeout) {
        String previous = rushId();
        new Select(browser.findElement(By.id("profile"))).selectByValue(profile);
        for (String id : List.of("speed", "rate", "duration", "thenRate", "thenDuration", "dashboardCapacity")) {
            WebElement field = browser.findElement(By.id(id));
            if (field.isEnabled()) {
                field.clear();
                field.sendKeys(fields.getOrDefault(id, id.equals("speed") ? "1" : ""));
            }
        }
        browser.findElement(By.id("rush-button")).click();
        await().atMost(Duration.ofSeconds(20)).until(() -> !rushId().equals(previous));
        assertThat(text("rush-problem")).isEmpty();
        String id = rushId();
        await().atMost(timeout).pollInterval(Duration.ofSeconds(1))
                .until(() -> !"running".equals(browser.findElement(By.id("rush-state")).getAttribute("data-state")));
        assertThat(browser.findElement(By.id("rush-state")).getAttribute("data-state")).as("rush %s: %s", id,
                text("rush-problem")).isEqualTo("done");
        await().atMost(Duration.ofSeconds(10)).until(() -> browser.findElement(By.id("result-panel")).isDisplayed());
        Map<String, Row> table = new LinkedHashMap<>();
        for (WebElement line : browser.findElements(By.cssSelector("#closing tbody tr"))) {
            List<WebElement> cells = line.findElements(By.tagName("td"));
            table.put(line.getAttribute("data-line"), new Row(number(cells.get(2).getText()), number(cells.get(3).getText()),
                    cells.get(5).getText(), cells.get(6).getText()));
        }
        log.info("rush {} ({} {}): {}", id, profile, fields, table);
        return table;
    }

    private static String rushId() {
        String state = text("rush-state");
        return state.contains(":") ? state.substring(0, state.indexOf(':')) : "";
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    /** A figure as the closing table prints it ({@code 1,234}, {@code 49.6}), NaN for "—" or "never". */
    private static double number(String text) {
        String plain = text.replace(",", "").strip();
        return plain.matches("-?\\d+(\\.\\d+)?") ? Double.parseDouble(plain) : Double.NaN;
    }

    /** The control room as it is, for the README: {@code docs/images/<name>.png}. */
    private static void screenshot(String name) {
        Browsers.screenshot(browser, name);
    }

    /** A page open in a second browser from before a rush, so that its charts hold the rush's history. */
    private static ChromeDriver watching(String service) {
        ChromeDriver other = Browsers.headlessChromium();
        other.manage().window().setSize(new Dimension(1400, 1100));
        other.get(stack.uri(service, "/").toString());
        return other;
    }

    private static void shotAndClose(ChromeDriver other, String name) {
        try {
            Browsers.screenshot(other, name);
        }
        finally {
            other.quit();
        }
    }

    /**
     * Another service's page, in a second browser so that the control room's stays signed in, saved for the README once
     * the element {@code ready} shows on it (its figures loaded).
     */
    private static void pageShot(String service, String name, By ready) {
        ChromeDriver other = Browsers.headlessChromium();
        try {
            other.manage().window().setSize(new Dimension(1400, 1100));
            other.get(stack.uri(service, "/").toString());
            await().atMost(Duration.ofSeconds(20)).until(() -> !other.findElements(ready).isEmpty()
                    && !other.findElement(ready).getText().isBlank());
            Thread.sleep(1500); // the charts' first drawing
            Browsers.screenshot(other, name);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        finally {
            other.quit();
        }
    }

    /** A line of the closing table. */
    record Row(double measured, double predicted, String verdict, String note) {
    }
}
