package dev.lunchrush.controlroom;

import java.net.URI;
import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The control room's own settings.
 *
 * @param pushInterval how often an open page is sent the lesson (nothing is polled while no page is open)
 * @param pollTimeout how long one service may take to answer the lesson's poll before it shows as down
 * @param rushesKept how many finished rushes {@code GET /api/rushes/{id}} still answers for
 * @param links where the browser finds the other pages; a link left out is the page's own host on the port of
 *     the README's table (8081 … 8084, Grafana 3000, Prometheus 9090, Kafka UI 8090)
 */
@Validated
@ConfigurationProperties("lunchrush.control-room")
public record ControlRoomProperties(
        @DefaultValue("1s") @NotNull Duration pushInterval,
        @DefaultValue("900ms") @NotNull Duration pollTimeout,
        @DefaultValue("20") @Min(1) int rushesKept,
        @DefaultValue Links links) {

    /**
     * @param kitchenScreen the kitchen screen's page
     * @param analyticsDashboard the dashboard's page
     * @param reportReplayer the replayer's page
     * @param backlogMonitor the backlog monitor's page
     * @param grafana Grafana (shown while {@code lunchrush.grafana-url} answers)
     * @param prometheus Prometheus (its alerts page under it is the one {@code lunchrush.prometheus-url} has:
     *     {@code /alerts}, or {@code /classic/alerts} on a Prometheus 2 without its new UI, as Debian's)
     * @param kafkaUi Kafka UI (shown while {@code lunchrush.kafka-ui-url} answers)
     * @param zipkin Zipkin (shown while {@code lunchrush.zipkin-url} answers)
     */
    public record Links(@Nullable URI kitchenScreen, @Nullable URI analyticsDashboard, @Nullable URI reportReplayer,
            @Nullable URI backlogMonitor, @Nullable URI grafana, @Nullable URI prometheus, @Nullable URI kafkaUi,
            @Nullable URI zipkin) {
    }
}
