package dev.lunchrush.controlroom;

import java.net.URI;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.lunchrush.localstack.StackManifest;

/**
 * Where the stack answers, as this process reaches it: the same settings ({@code LUNCHRUSH_ORDER_SERVICE_URL} …)
 * as the {@code demo} command's; a service that is not set is on localhost at its port in the stack manifest
 * ({@link StackManifest}), as {@code ./demo up} starts it.
 *
 * @param orderServiceUrl the order service
 * @param kitchenScreenUrl the kitchen screen
 * @param analyticsDashboardUrl the analytics dashboard
 * @param reportReplayerUrl the report replayer
 * @param backlogMonitorUrl the backlog monitor
 * @param prometheusUrl Prometheus, whose firing alerts the page lists (none listed when it does not answer), and whose
 *     alerts page it links where it answers
 * @param grafanaUrl Grafana, which the page links only while it answers ({@code docker compose up} runs it, {@code ./demo
 *     up} does not); not set, {@code http://localhost:3000}, compose's host port
 * @param kafkaUiUrl Kafka UI, the same (compose only); not set, {@code http://localhost:8090}, compose's host port
 * @param zipkinUrl Zipkin, the orders' traces, which the page links only while it answers (both ways of running the stack
 *     run it, unless {@code ./demo up --no-tracing}); not set, {@code http://localhost:9411}
 */
@ConfigurationProperties("lunchrush")
public record StackProperties(
        @Nullable URI orderServiceUrl,
        @Nullable URI kitchenScreenUrl,
        @Nullable URI analyticsDashboardUrl,
        @Nullable URI reportReplayerUrl,
        @Nullable URI backlogMonitorUrl,
        @Nullable URI prometheusUrl,
        @Nullable URI grafanaUrl,
        @Nullable URI kafkaUiUrl,
        @Nullable URI zipkinUrl) {

    public StackProperties {
        orderServiceUrl = orLocal(orderServiceUrl, "order-service");
        kitchenScreenUrl = orLocal(kitchenScreenUrl, "kitchen-screen");
        analyticsDashboardUrl = orLocal(analyticsDashboardUrl, "analytics-dashboard");
        reportReplayerUrl = orLocal(reportReplayerUrl, "report-replayer");
        backlogMonitorUrl = orLocal(backlogMonitorUrl, "backlog-monitor");
        prometheusUrl = prometheusUrl != null ? prometheusUrl
                : URI.create("http://localhost:" + StackManifest.get().port("prometheus"));
        grafanaUrl = grafanaUrl != null ? grafanaUrl : URI.create("http://localhost:3000");
        kafkaUiUrl = kafkaUiUrl != null ? kafkaUiUrl : URI.create("http://localhost:8090");
        zipkinUrl = zipkinUrl != null ? zipkinUrl : URI.create("http://localhost:" + StackManifest.get().port("zipkin"));
    }

    private static URI orLocal(@Nullable URI url, String service) {
        return url != null ? url : StackManifest.get().service(service).localUrl();
    }
}
