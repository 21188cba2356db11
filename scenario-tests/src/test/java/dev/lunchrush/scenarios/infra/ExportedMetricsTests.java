package dev.lunchrush.scenarios.infra;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.testing.ServiceProcess;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every metric that a Grafana dashboard or a Prometheus rule of {@code infra/} uses is really exported:
 * the five services run from their packaged jars on the test brokers, get a few orders in every act and
 * one replay (so that metrics registered on first use exist too), and their {@code /actuator/prometheus}
 * is scraped, with RabbitMQ's own exporter where it answers. The test names each missing metric, the
 * queries that use it, and what the scrape says about it.
 * <p>
 * Not scraped, and why: {@link KnownMetrics#KAFKA_EXPORTER} (kafka-exporter runs in docker compose
 * only), {@link KnownMetrics#PROMETHEUS} (made by Prometheus itself), and
 * {@link KnownMetrics#RABBITMQ_EXPORTER} only when the test broker's exporter (port 15692) does not
 * answer, as with a Testcontainers broker.
 */
class ExportedMetricsTests {

    private static final Logger log = LoggerFactory.getLogger(ExportedMetricsTests.class);

    private static final List<String> SERVICES = List.of("order-service", "kitchen-screen", "analytics-dashboard",
            "report-replayer", "backlog-monitor");
    private static final String ADMIN_PASSWORD = "exported-metrics-admin-secret";
    // Small, quick-starting JVMs: five of them start at once on a small machine.
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final Map<String, Integer> ports = new LinkedHashMap<>();

    @Test
    void everyMetricThatADashboardOrAnAlertRuleUsesIsExported(@TempDir Path data) {
        Map<String, Set<String>> used = MonitoringQueries.usedMetricNames();
        assertThat(used).isNotEmpty();
        SERVICES.forEach(service -> ports.put(service, freePort()));

        Map<String, ServiceProcess> running = new LinkedHashMap<>();
        try {
            startAll(data, running);
            exerciseEveryAct();

            URI rabbitExporter = rabbitExporter();
            boolean rabbitAnswers = scrape(rabbitExporter) != null;
            Set<String> notScraped = new HashSet<>(KnownMetrics.KAFKA_EXPORTER);
            notScraped.addAll(KnownMetrics.PROMETHEUS);
            if (!rabbitAnswers) {
                log.warn("RabbitMQ's exporter does not answer at {}: its metrics are taken on trust", rabbitExporter);
                notScraped.addAll(KnownMetrics.RABBITMQ_EXPORTER);
            }

            // Metrics registered on first use appear once the orders and the replay have gone through.
            AtomicReference<List<String>> missing = new AtomicReference<>(List.of());
            AtomicReference<Exposition> lastScrape = new AtomicReference<>(Exposition.empty());
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).until(() -> {
                    Exposition exported = scrapeServices();
                    if (rabbitAnswers) {
                        exported = exported.plus(parseOrEmpty(scrape(rabbitExporter)));
                    }
                    lastScrape.set(exported);
                    missing.set(missing(used, exported, notScraped));
                    return missing.get().isEmpty();
                });
            }
            catch (ConditionTimeoutException ex) {
                // the assertion below names what is missing
            }
            log.info("scraped {} series names; used by dashboards and rules: {}; missing: {}",
                    lastScrape.get().samples().size(), used.size(), missing.get().size());
            assertThat(missing.get())
                    .as("metrics that a dashboard or an alert rule of infra/ uses and nothing exports")
                    .isEmpty();
        }
        finally {
            running.values().forEach(ServiceProcess::stop);
        }
    }

    private static List<String> missing(Map<String, Set<String>> used, Exposition exported, Set<String> notScraped) {
        List<String> missing = new ArrayList<>();
        used.forEach((name, origins) -> {
            if (!notScraped.contains(name) && !exported.exports(name)) {
                missing.add(name + ": " + exported.whyMissing(name) + " (used by " + String.join("; ", origins) + ")");
            }
        });
        return missing;
    }

    private void startAll(Path data, Map<String, ServiceProcess> running) {
        Map<String, String> environment = new LinkedHashMap<>(TestBrokers.environment());
        environment.put("LUNCHRUSH_SECURITY_ADMIN_PASSWORD", ADMIN_PASSWORD);
        environment.put("LUNCHRUSH_ORDER_SERVICE_URL", "http://127.0.0.1:" + ports.get("order-service"));
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        for (String service : SERVICES) {
            Map<String, String> own = new LinkedHashMap<>(environment);
            own.put("LUNCHRUSH_DATA_DIR", data.resolve(service).toAbsolutePath().toString());
            starts.add(CompletableFuture.runAsync(() -> {
                ServiceProcess process = ServiceProcess.start(service, ports.get(service), JVM_OPTIONS, own, START_TIMEOUT);
                synchronized (running) {
                    running.put(service, process);
                }
            }));
        }
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
    }

    /**
     * A few orders in every act, then a replay of today: each reader's counters for each of its sources,
     * the feed's, the latency histogram and the replay's gauges get their first values. Failures here are
     * logged, not asserted: other tests own these endpoints; this one is about the metrics.
     */
    private void exerciseEveryAct() {
        JsonNode menu = JSON.readTree(send("GET", "order-service", "/menu", null, false).body());
        JsonNode kitchen = menu.path("kitchens").path(0);
        String order = """
                {"kitchenId":"%s","customerId":"c-metrics","items":[{"dish":"%s","quantity":1}],\
                "deliveryAddress":"1 Scrape Street","notes":"metrics test"}"""
                .formatted(kitchen.path("id").asString(""), kitchen.path("dishes").path(0).asString(""));
        for (String act : List.of("{\"act\":\"shared-queue\"}", "{\"act\":\"queue-per-reader\"}",
                "{\"act\":\"memory-feed\",\"strategy\":\"drop\",\"capacity\":5}", "{\"act\":\"log\"}")) {
            logUnexpected(send("PUT", "order-service", "/admin/act", act, true), "PUT /admin/act " + act);
            for (int i = 0; i < 10; i++) {
                logUnexpected(send("POST", "order-service", "/orders", order, false), "POST /orders in " + act);
            }
        }
        String replay = "{\"date\":\"" + LocalDate.now(ZoneOffset.UTC) + "\",\"zone\":\"UTC\"}";
        logUnexpected(send("POST", "report-replayer", "/admin/replays", replay, true), "POST /admin/replays");
    }

    private static void logUnexpected(HttpResponse<String> response, String what) {
        if (response.statusCode() >= 300) {
            log.warn("{} answered {}: {}", what, response.statusCode(), response.body());
        }
    }

    private Exposition scrapeServices() {
        Exposition exported = Exposition.empty();
        for (String service : SERVICES) {
            exported = exported.plus(parseOrEmpty(scrape(URI.create("http://127.0.0.1:" + ports.get(service) + "/actuator/prometheus"))));
        }
        return exported;
    }

    private static Exposition parseOrEmpty(String text) {
        return text == null ? Exposition.empty() : Exposition.parse(text);
    }

    private static URI rabbitExporter() {
        return URI.create("http://" + TestBrokers.rabbit().managementUri().getHost() + ":15692/metrics/per-object");
    }

    /** The exposition in Prometheus' classic text format, or null when nothing answers. */
    private String scrape(URI uri) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .header("Accept", "text/plain;version=0.0.4").GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        }
        catch (IOException ex) {
            return null;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private HttpResponse<String> send(String method, String service, String path, String json, boolean admin) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.get(service) + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (admin) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString(("admin:" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new IllegalStateException(method + " " + service + path + " failed", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
