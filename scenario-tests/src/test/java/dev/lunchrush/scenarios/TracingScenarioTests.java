package dev.lunchrush.scenarios;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.processes.ServiceJar;
import dev.lunchrush.testing.Browsers;
import dev.lunchrush.testing.ChildProcesses;
import dev.lunchrush.testing.FreePorts;
import dev.lunchrush.testing.ServiceProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An order's trace, in act 4, through the packaged services and a real Zipkin server (the jar that
 * {@code tools/zipkin-server} copies): the order service's span of each sampled order and of its send to Kafka, and
 * the kitchen screen's and the dashboard's spans of their handling, in one trace. The sampling is the setting's: half
 * of the orders here, so a share near a half is traced. The dashboard's job is slower than the rush: its spans start
 * as late as its backlog says, the kitchen screen's at once. In a real browser, the kitchen screen links a traced
 * order to its trace, and Zipkin's page of it names the three services ({@code docs/images/zipkin-trace.png}).
 */
class TracingScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(TracingScenarioTests.class);

    private static final int ORDERS = 120;
    private static final double SAMPLING = 0.5;
    /** The dashboard's job, orders per second: the rush's 120 orders in about two seconds leave it a backlog. */
    private static final int DASHBOARD_CAPACITY = 30;

    private static final int ZIPKIN_PORT = FreePorts.next();
    private static Process zipkin;
    private static Stack stack;

    @BeforeAll
    static void start() throws IOException {
        zipkin = startZipkin();
        stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard").inAct("{\"act\":\"log\"}");
        Map<String, String> tracing = Map.of(
                "MANAGEMENT_TRACING_EXPORT_ENABLED", "true",
                "MANAGEMENT_TRACING_SAMPLING_PROBABILITY", String.valueOf(SAMPLING),
                "MANAGEMENT_TRACING_EXPORT_ZIPKIN_ENDPOINT", zipkin("/api/v2/spans").toString(),
                "LUNCHRUSH_SCREEN_TRACELINK", zipkin("/zipkin/traces/").toString());
        stack.environment("order-service", tracing).environment("kitchen-screen", tracing)
                .environment("analytics-dashboard", tracing);
        stack.start();
        stack.dashboardCapacity(DASHBOARD_CAPACITY);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (zipkin != null) {
            ChildProcesses.stop(zipkin, Duration.ofSeconds(15));
        }
    }

    @Test
    void aSampledOrdersTraceShowsItsIntakeItsWriteAndEachReadersWait() throws Exception {
        List<String> orderIds = placeOrders();
        // every order reached both readers: the dashboard's job takes ORDERS / DASHBOARD_CAPACITY seconds
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() ->
                stack.getJson("analytics-dashboard", "/api/stats").path("received").path("kafka").asLong() >= ORDERS
                        && stack.getJson("kitchen-screen", "/api/stats").path("received").path("kafka").asLong() >= ORDERS);

        // the order service's spans of the orders: about SAMPLING of them (Zipkin takes spans a second or so late)
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            int complete = tracesWithAll().size();
            int orders = ordersTraced().size();
            log.info("traces of orders in Zipkin: {}, with both readers' spans: {}", orders, complete);
            return complete == orders && orders > 0;
        });
        List<JsonNode> traced = ordersTraced();
        double share = traced.size() / (double) ORDERS;
        log.info("{} of {} orders traced ({}), sampling {}", traced.size(), ORDERS, share, SAMPLING);
        assertThat(share).as("share of the orders traced at sampling %s", SAMPLING).isBetween(0.3, 0.7);

        // each traced order's trace: its intake, its send to Kafka, both readers' handling, in order
        List<Long> kitchenWaits = new ArrayList<>();
        List<Long> dashboardWaits = new ArrayList<>();
        for (List<JsonNode> trace : tracesWithAll()) {
            JsonNode intake = span(trace, "order-service", "place order");
            JsonNode send = span(trace, "order-service", "send kafka");
            JsonNode kitchen = span(trace, "kitchen-screen", "kitchen-screen receive");
            JsonNode dashboard = span(trace, "analytics-dashboard", "analytics-dashboard receive");
            assertThat(send.path("parentId").asString()).isEqualTo(intake.path("id").asString());
            assertThat(kitchen.path("parentId").asString()).isEqualTo(send.path("id").asString());
            assertThat(dashboard.path("parentId").asString()).isEqualTo(send.path("id").asString());
            assertThat(orderIds).contains(send.path("tags").path("order.id").asString());
            kitchenWaits.add(wait(send, kitchen));
            dashboardWaits.add(wait(send, dashboard));
        }
        // the dashboard's job is slower than the rush: the orders it comes to last waited seconds (the last of 120 at
        // 30/s: four seconds less the two the rush took), the kitchen screen took each at once
        long kitchenLate = percentile(kitchenWaits, 0.9);
        long dashboardLate = percentile(dashboardWaits, 0.9);
        log.info("waits before the reader's span, 90th percentile: kitchen screen {} ms, dashboard {} ms", kitchenLate,
                dashboardLate);
        assertThat(dashboardLate).as("the dashboard's wait, 90th percentile, ms").isGreaterThan(kitchenLate + 1_000);

        // the kitchen screen links a traced order to its trace, and Zipkin's page shows the three services
        ChromeDriver browser = Browsers.headlessChromium();
        try {
            browser.manage().window().setSize(new Dimension(1400, 1000));
            browser.get(stack.uri("kitchen-screen", "/").toString());
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> !browser.findElements(By.cssSelector(".order a.trace")).isEmpty());
            WebElement link = browser.findElements(By.cssSelector(".order a.trace")).get(0);
            String traceId = link.getAttribute("href").substring(link.getAttribute("href").lastIndexOf('/') + 1);
            String screen = browser.getWindowHandle();
            link.click();
            await().atMost(Duration.ofSeconds(10)).until(() -> browser.getWindowHandles().size() == 2);
            browser.getWindowHandles().stream().filter(handle -> !handle.equals(screen)).findFirst()
                    .ifPresent(handle -> browser.switchTo().window(handle));
            assertThat(browser.getCurrentUrl()).contains(traceId);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                String page = browser.getPageSource().toLowerCase();
                return page.contains("order-service") && page.contains("kitchen-screen")
                        && page.contains("analytics-dashboard");
            });
            Browsers.screenshot(browser, "zipkin-trace");
        }
        finally {
            browser.quit();
        }
    }

    /** Places the orders from eight clients at once; their ids. */
    private static List<String> placeOrders() throws Exception {
        Supplier<String> bodies = stack.orderBodies(41);
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> placed = new ArrayList<>();
            for (int i = 0; i < ORDERS; i++) {
                placed.add(clients.submit(() -> {
                    var response = stack.post("order-service", "/orders", bodies.get(), Map.of());
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
                    return Stack.JSON.readTree(response.body()).path("orderId").asString();
                }));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> order : placed) {
                ids.add(order.get());
            }
            return ids;
        }
        finally {
            clients.shutdownNow();
        }
    }

    /** The order service's spans of orders, one per traced order. */
    private static List<JsonNode> ordersTraced() {
        return traces("serviceName=order-service&spanName=place%20order").stream()
                .map(trace -> span(trace, "order-service", "place order")).toList();
    }

    /** The traces of orders in which both readers' spans are in too. */
    private static List<List<JsonNode>> tracesWithAll() {
        return traces("serviceName=order-service&spanName=place%20order").stream()
                .filter(trace -> find(trace, "kitchen-screen", "kitchen-screen receive") != null
                        && find(trace, "analytics-dashboard", "analytics-dashboard receive") != null)
                .toList();
    }

    private static List<List<JsonNode>> traces(String query) {
        String body = Stack.fetch(zipkin("/api/v2/traces?" + query + "&limit=1000&lookback=3600000"), "application/json");
        List<List<JsonNode>> traces = new ArrayList<>();
        if (body == null) {
            return traces;
        }
        for (JsonNode trace : Stack.JSON.readTree(body)) {
            List<JsonNode> spans = new ArrayList<>();
            trace.forEach(spans::add);
            traces.add(spans);
        }
        return traces;
    }

    private static JsonNode span(List<JsonNode> trace, String service, String name) {
        JsonNode span = find(trace, service, name);
        assertThat(span).as("a span '%s' of %s in %s", name, service, trace).isNotNull();
        return span;
    }

    private static JsonNode find(List<JsonNode> trace, String service, String name) {
        return trace.stream().filter(span -> service.equals(span.path("localEndpoint").path("serviceName").asString())
                && name.equals(span.path("name").asString())).findFirst().orElse(null);
    }

    /** Milliseconds from the end of the send to the start of the reader's span: the order's wait for the reader. */
    private static long wait(JsonNode send, JsonNode reader) {
        long sent = send.path("timestamp").asLong() + send.path("duration").asLong();
        return Math.max(0, reader.path("timestamp").asLong() - sent) / 1_000;
    }

    private static long percentile(List<Long> values, double quantile) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(quantile * sorted.size())));
    }

    private static URI zipkin(String path) {
        return URI.create("http://127.0.0.1:" + ZIPKIN_PORT + path);
    }

    /** Zipkin's server in memory on 127.0.0.1 alone, as {@code ./demo up} runs it, on a free port. */
    private static Process startZipkin() throws IOException {
        ServiceJar jar = new ServiceJar(ServiceProcess.projectRoot(), "zipkin-server");
        if (!jar.built()) {
            throw new IllegalStateException(jar.path() + " is missing: ./mvnw package -pl tools/zipkin-server");
        }
        Path logFile = Files.createDirectories(Path.of("target", "service-logs"))
                .resolve("zipkin-" + ZIPKIN_PORT + "-" + Instant.now().toEpochMilli() + ".log");
        ProcessBuilder builder = new ProcessBuilder(jar.command(List.of("-Xmx256m", "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1"),
                List.of("--armeria.ports[0].port=" + ZIPKIN_PORT, "--armeria.ports[0].ip=127.0.0.1",
                        "--armeria.ports[0].protocols[0]=http")))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        Map<String, String> environment = new HashMap<>(Map.of("STORAGE_TYPE", "mem"));
        builder.environment().putAll(environment);
        Process process = ChildProcesses.start(builder);
        try {
            ChildProcesses.awaitReady(process, () -> Stack.fetch(zipkin("/health"), "application/json") != null,
                    Stack.START_TIMEOUT, "zipkin", logFile);
        }
        catch (IllegalStateException ex) {
            ChildProcesses.stop(process, Duration.ZERO);
            throw new UncheckedIOException(new IOException("Zipkin did not start: see " + logFile, ex));
        }
        return process;
    }
}
