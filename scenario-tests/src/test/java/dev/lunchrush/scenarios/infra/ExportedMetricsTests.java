package dev.lunchrush.scenarios.infra;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.Topology;
import dev.lunchrush.scenarios.Orders;
import dev.lunchrush.scenarios.SideBySide;
import dev.lunchrush.scenarios.Stack;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every metric that a Grafana dashboard or a Prometheus rule of {@code infra/} uses is really exported:
 * the five services run from their packaged jars on the test brokers, get a few orders in every act, a
 * poison record and one replay (so that metrics registered on first use exist too), and their {@code /actuator/prometheus}
 * is scraped, with RabbitMQ's own exporter (the test fails when it does not answer). The test names each missing metric, the
 * queries that use it, and what the scrape says about it.
 * <p>
 * The same scrape checks {@code infra/exported-metrics.txt}, the list that {@code infra/check} holds every
 * rule and dashboard to ({@link ExportedMetricsFile}): written to {@code target/exported-metrics.txt} every
 * run, over the committed file with {@code -Dlunchrush.exported-metrics=write}.
 * <p>
 * Not scraped, and why: {@link KnownMetrics#KAFKA_EXPORTER} (kafka-exporter runs in docker compose
 * only) and {@link KnownMetrics#PROMETHEUS} (made by Prometheus itself).
 */
@SideBySide
class ExportedMetricsTests {

    private static final Logger log = LoggerFactory.getLogger(ExportedMetricsTests.class);

    private static final List<String> SERVICES = List.of("order-service", "kitchen-screen", "analytics-dashboard",
            "report-replayer", "backlog-monitor");
    private static final String PROMETHEUS_TEXT = "text/plain;version=0.0.4";

    @Test
    void everyMetricThatADashboardOrAnAlertRuleUsesIsExported(@TempDir Path data) {
        Map<String, Set<String>> used = MonitoringQueries.usedMetricNames();
        assertThat(used).isNotEmpty();

        try (Stack stack = new Stack(data, SERVICES)) {
            stack.start();
            exerciseEveryAct(stack);
            // a JVM's collection metrics (jvm_gc_pause_seconds_*) appear at its first collection, which a quiet
            // service that started lean may not have had yet: each is asked for one
            SERVICES.forEach(service -> stack.jcmd(service, "GC.run"));

            URI rabbitExporter = TestBrokers.rabbit().prometheusUri().resolve("/metrics/per-object");
            // the rules and dashboards use RabbitMQ's own metrics: they are checked, never taken on trust
            assertThat(Stack.fetch(rabbitExporter, PROMETHEUS_TEXT))
                    .as("RabbitMQ's Prometheus exporter at %s (rabbitmq-plugins enable rabbitmq_prometheus)", rabbitExporter)
                    .isNotNull();
            Set<String> notScraped = new HashSet<>(KnownMetrics.KAFKA_EXPORTER);
            notScraped.addAll(KnownMetrics.PROMETHEUS);

            // Metrics registered on first use appear once the orders and the replay have gone through.
            AtomicReference<List<String>> missing = new AtomicReference<>(List.of());
            AtomicReference<Map<String, Exposition>> lastScrape = new AtomicReference<>(Map.of());
            try {
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).until(() -> {
                    Map<String, Exposition> scrapes = new TreeMap<>();
                    for (String service : SERVICES) {
                        scrapes.put(service, parse(Stack.fetch(stack.uri(service, "/actuator/prometheus"), PROMETHEUS_TEXT)));
                    }
                    scrapes.put(ExportedMetricsFile.RABBITMQ, parse(Stack.fetch(rabbitExporter, PROMETHEUS_TEXT)));
                    Exposition exported = scrapes.values().stream().reduce(Exposition.empty(), Exposition::plus);
                    lastScrape.set(scrapes);
                    missing.set(missing(used, exported, notScraped));
                    return missing.get().isEmpty();
                });
            }
            catch (ConditionTimeoutException ex) {
                // the assertion below names what is missing
            }
            log.info("scraped {} series names; {} metric names used by dashboards and rules; {} missing",
                    lastScrape.get().values().stream().reduce(Exposition.empty(), Exposition::plus).samples().size(),
                    used.size(), missing.get().size());
            assertThat(missing.get())
                    .as("metrics that a dashboard or an alert rule of infra/ uses and nothing exports")
                    .isEmpty();

            theCommittedListOfExportedMetricsIsTrue(lastScrape.get(), used.keySet());
        }
    }

    /**
     * {@code infra/exported-metrics.txt}, which infra/check reads, against this scrape: written afresh to
     * {@code target/exported-metrics.txt} every time (and over the committed file when asked: see
     * {@link ExportedMetricsFile#writeRequested()}); otherwise every name the committed file lists for a
     * scraped exporter must be exported by it, and every Lunch Rush metric exported must be listed.
     */
    private static void theCommittedListOfExportedMetricsIsTrue(Map<String, Exposition> scrapes, Set<String> used) {
        Map<String, Set<String>> scraped = new TreeMap<>();
        scrapes.forEach((exporter, exposition) -> exposition.samples().forEach(name -> {
            if (!ExportedMetricsFile.RABBITMQ.equals(exporter) || name.startsWith("rabbitmq_")) {
                scraped.computeIfAbsent(name, key -> new TreeSet<>()).add(exporter);
            }
        }));
        Path committed = ExportedMetricsFile.committed();
        Map<String, Set<String>> fresh = new TreeMap<>();
        scraped.forEach((name, exporters) -> {
            if (exporters.contains(ExportedMetricsFile.RABBITMQ) || ExportedMetricsFile.kept(name, used)) {
                fresh.put(name, new TreeSet<>(exporters));
            }
        });
        KnownMetrics.KAFKA_EXPORTER.forEach(name ->
                fresh.computeIfAbsent(name, key -> new TreeSet<>()).add(ExportedMetricsFile.KAFKA_EXPORTER));
        KnownMetrics.PROMETHEUS.forEach(name ->
                fresh.computeIfAbsent(name, key -> new TreeSet<>()).add(ExportedMetricsFile.PROMETHEUS));

        Path candidate = Path.of("target", "exported-metrics.txt");
        ExportedMetricsFile.write(candidate, fresh);
        if (ExportedMetricsFile.writeRequested()) {
            ExportedMetricsFile.write(committed, fresh);
            log.info("wrote {} metric names to {}", fresh.size(), committed);
            return;
        }
        assertThat(committed).as("the list of exported metrics that infra/check reads").isRegularFile();
        List<String> wrong = ExportedMetricsFile.discrepancies(ExportedMetricsFile.read(committed), scraped, scrapes.keySet());
        assertThat(wrong)
                .as("%s against this stack's scrape (the scrape's list is in %s; rewrite the committed file with -D%s=write)",
                        committed, candidate.toAbsolutePath(), ExportedMetricsFile.WRITE_PROPERTY)
                .isEmpty();
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

    /** Bytes that are no order: each reader of the log dead-letters it, and counts it. */
    private static void sendPoisonRecord() {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, "k1".getBytes(StandardCharsets.UTF_8),
                    "{not an order".getBytes(StandardCharsets.UTF_8))).get(30, TimeUnit.SECONDS);
        }
        catch (Exception ex) {
            log.warn("could not send the poison record: {}", ex.toString());
        }
    }

    private static Exposition parse(String text) {
        return text == null ? Exposition.empty() : Exposition.parse(text);
    }

    /**
     * A few orders in every act, a poison record on the log, then a replay of today: each reader's
     * counters for each of its sources, the feed's, the dead-letter counters, the latency histogram and the
     * replay's gauges get their first values. Failures here are
     * logged, not asserted: other tests own these endpoints; this one is about the metrics.
     */
    private static void exerciseEveryAct(Stack stack) {
        Iterator<OrderRequest> orders = Orders.random(Orders.menu(stack), 40, 1L).iterator();
        for (String act : List.of("{\"act\":\"shared-queue\"}", "{\"act\":\"queue-per-reader\"}",
                "{\"act\":\"memory-feed\",\"strategy\":\"drop\",\"capacity\":5}", "{\"act\":\"log\"}")) {
            stack.switchAct(act);
            for (int i = 0; i < 10; i++) {
                logUnexpected(stack.post("order-service", "/orders", Stack.JSON.writeValueAsString(orders.next()), Map.of()),
                        "POST /orders");
            }
        }
        sendPoisonRecord();
        String replay = "{\"date\":\"" + LocalDate.now(ZoneOffset.UTC) + "\",\"zone\":\"UTC\"}";
        logUnexpected(stack.sendAsAdmin("POST", "report-replayer", "/admin/replays", replay), "POST /admin/replays");
    }

    private static void logUnexpected(HttpResponse<String> response, String what) {
        if (response.statusCode() >= 300) {
            log.warn("{} answered {}: {}", what, response.statusCode(), response.body());
        }
    }
}
