package dev.lunchrush.scenarios.infra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Grafana dashboards and the Prometheus rules of {@code infra/} query, read from the files
 * themselves: every query names a metric, every name is one that someone promises to export, and the
 * metrics of the public contract are all watched somewhere. (Whether they are really exported is
 * {@link ExportedMetricsTests}.)
 */
class DashboardQueriesTests {

    @Test
    void theTokenizerKeepsMetricNamesAndDropsFunctionsKeywordsAndLabels() {
        assertThat(MonitoringQueries.metricNames(
                "sum by (application, source) (rate(orders_received_total{source=\"kafka\", application=~\"k.*\"}[$__rate_interval]))"))
                .containsExactly("orders_received_total");
        assertThat(MonitoringQueries.metricNames(
                "histogram_quantile(0.99, sum by (le) (rate(order_to_screen_latency_seconds_bucket[5m])))"))
                .containsExactly("order_to_screen_latency_seconds_bucket");
        assertThat(MonitoringQueries.metricNames(
                "sum by (instance) (jvm_memory_used_bytes{area=\"heap\"}) / sum by (instance) (jvm_memory_max_bytes{area=\"heap\"} > 0) > 0.9"))
                .containsExactly("jvm_memory_max_bytes", "jvm_memory_used_bytes");
        assertThat(MonitoringQueries.metricNames("""
                scalar(sum(increase(orders_placed_total[5m])))
                - (sum by (application) (increase(orders_received_total[5m]))
                   + on (application) (sum by (application) (label_replace(delta(backlog_unread_events[5m]),
                       "application", "$1$2", "reader", "kafka:(.+)|rabbitmq:orders[.](.+)"))
                   or 0 * sum by (application) (increase(orders_received_total[5m]))))
                > 0.02 * scalar(sum(increase(orders_placed_total[5m]))) + 10"""))
                .containsExactly("backlog_unread_events", "orders_placed_total", "orders_received_total");
        assertThat(MonitoringQueries.metricNames("up{job!=\"kafka-exporter\"} == 0 unless on(job) ALERTS offset 5m"))
                .containsExactly("ALERTS", "up");
        assertThat(MonitoringQueries.metricNames("sum(increase(replay_completed_total[$__range])) * 1e3 + Inf"))
                .containsExactly("replay_completed_total");
    }

    @Test
    void theDashboardsAndRulesAreRead() {
        assertThat(MonitoringQueries.dashboardFiles()).extracting(path -> path.getFileName().toString())
                .contains("lunch-rush.json", "replay.json", "brokers.json");
        assertThat(MonitoringQueries.ruleFiles()).isNotEmpty();
        List<MonitoringQueries.Query> queries = MonitoringQueries.all();
        assertThat(queries).hasSizeGreaterThanOrEqualTo(40);
        assertThat(queries).allSatisfy(query -> assertThat(query.metricNames())
                .as("metrics used by %s: %s", query.origin(), query.expr()).isNotEmpty());
    }

    @Test
    void everyMetricUsedIsOneThatAServiceABrokerExporterOrPrometheusProvides() {
        Set<String> known = new HashSet<>();
        known.addAll(KnownMetrics.SERVICES);
        known.addAll(KnownMetrics.RABBITMQ_EXPORTER);
        known.addAll(KnownMetrics.KAFKA_EXPORTER);
        known.addAll(KnownMetrics.PROMETHEUS);
        List<String> unknown = new ArrayList<>();
        MonitoringQueries.usedMetricNames().forEach((name, origins) -> {
            if (!known.contains(name)) {
                unknown.add(name + " (used by " + String.join(", ", origins) + ")");
            }
        });
        assertThat(unknown).as("metric names that nobody promises to export (a typo, or add it to KnownMetrics)").isEmpty();
    }

    @Test
    void everyMetricOfThePublicContractIsWatched() {
        assertThat(MonitoringQueries.usedMetricNames().keySet()).containsAll(KnownMetrics.DESIGN_CONTRACT);
    }

    @Test
    void everyPanelHasATitleADescriptionAndThePinnedDatasource() {
        for (Path file : MonitoringQueries.dashboardFiles()) {
            JsonNode dashboard = MonitoringQueries.dashboard(file);
            assertThat(dashboard.path("uid").asString("")).as("uid of %s", file).isNotBlank();
            List<JsonNode> panels = MonitoringQueries.panels(dashboard);
            assertThat(panels).as("panels of %s", file).isNotEmpty();
            for (JsonNode panel : panels) {
                String title = panel.path("title").asString("");
                assertThat(title).as("a panel of %s without a title", file).isNotBlank();
                assertThat(panel.path("description").asString("")).as("description of %s / %s", file.getFileName(), title)
                        .isNotBlank();
                List<String> uids = new ArrayList<>();
                datasourceUids(panel, uids);
                assertThat(uids).as("datasources of %s / %s", file.getFileName(), title)
                        .allMatch(MonitoringQueries.PINNED_DATASOURCE_UID::equals);
                if (!"row".equals(panel.path("type").asString(""))) {
                    assertThat(uids).as("datasources of %s / %s", file.getFileName(), title).isNotEmpty();
                }
            }
        }
    }

    private static void datasourceUids(JsonNode node, List<String> into) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> property : node.properties()) {
                if ("datasource".equals(property.getKey())) {
                    into.add(property.getValue().isObject() ? property.getValue().path("uid").asString("")
                            : property.getValue().asString(""));
                }
                else if (!"panels".equals(property.getKey())) {
                    datasourceUids(property.getValue(), into);
                }
            }
        }
        else if (node.isArray()) {
            node.values().forEach(child -> datasourceUids(child, into));
        }
    }
}
