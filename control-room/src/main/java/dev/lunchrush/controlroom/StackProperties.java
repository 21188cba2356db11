package dev.lunchrush.controlroom;

import java.net.URI;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the stack answers, as this process reaches it: the same settings ({@code LUNCHRUSH_ORDER_SERVICE_URL} …)
 * as the {@code demo} command's, the ports of {@code ./demo up} by default.
 *
 * @param orderServiceUrl the order service
 * @param kitchenScreenUrl the kitchen screen
 * @param analyticsDashboardUrl the analytics dashboard
 * @param reportReplayerUrl the report replayer
 * @param backlogMonitorUrl the backlog monitor
 * @param prometheusUrl Prometheus, whose firing alerts the page lists (none listed when it does not answer)
 */
@ConfigurationProperties("lunchrush")
public record StackProperties(
        @DefaultValue("http://localhost:8080") URI orderServiceUrl,
        @DefaultValue("http://localhost:8081") URI kitchenScreenUrl,
        @DefaultValue("http://localhost:8082") URI analyticsDashboardUrl,
        @DefaultValue("http://localhost:8083") URI reportReplayerUrl,
        @DefaultValue("http://localhost:8084") URI backlogMonitorUrl,
        @DefaultValue("http://localhost:9090") URI prometheusUrl) {
}
