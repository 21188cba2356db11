package dev.lunchrush.controlroom.lesson;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.controlroom.rushes.RushSummary;

/**
 * The lesson at one moment, as the page shows it and {@code GET /api/lesson} answers: the act, each service's
 * readiness, the order service's heap and feed, each reader's counts and backlogs, the firing alerts, and the rush
 * running (or the last one).
 *
 * @param act the order service's act, null while it does not answer
 * @param orderService its {@code /api/stats} as it answers (act, placed, feed, heap), null while it does not answer
 * @param backlogs every reader the backlog monitor watches: unread events and the oldest one's age
 * @param dashboardBacklog the dashboard's unread events where the act keeps them (the log, its queue, the order
 *     service's feed), -1 when unknown: what the rush's backlog chart shows, for a rush from another client too
 * @param rush the rush under way, or the last one; null before the first
 * @param links the other pages where the settings name them (the page uses its own host and the README's ports for
 *     the others)
 * @param tools which of the tools beside the stack answer, and where Prometheus keeps its alerts page: the page links a
 *     tool only where it runs
 */
public record Lesson(Instant at, @Nullable ActState act, List<ServiceState> services, @Nullable JsonNode orderService,
        List<Reader> readers, List<Backlog> backlogs, long dashboardBacklog, Alerts alerts, @Nullable RushSummary rush,
        Map<String, String> links, Tools tools) {

    /** {@code GET /api/act}: strategy and capacity matter in {@code memory-feed} only. */
    public record ActState(String act, String strategy, long capacity) {
    }

    /**
     * @param state {@code ready}, {@code not ready} (it answers, its readiness says no) or {@code down}
     */
    public record ServiceState(String name, String state) {
    }

    /**
     * A reader's {@code /api/stats}: what it got, per source and in all; the dashboard's capacity; the kitchen
     * screen's missing orders. -1 where it does not say.
     */
    public record Reader(String name, boolean up, long total, Map<String, Long> received, double capacityPerSecond,
            long missing) {
    }

    /** One reader of the backlog monitor's {@code /api/readers}. */
    public record Backlog(String reader, long unread, @Nullable Double oldestUnreadAgeSeconds) {
    }

    /**
     * @param prometheus whether Prometheus answered (no alerts are known when it did not)
     * @param firing the alerts firing now
     */
    public record Alerts(boolean prometheus, List<Alert> firing) {
    }

    public record Alert(String name, String severity, String summary, @Nullable String since) {
    }

    /**
     * The tools beside the stack as this process reaches them, asked every few seconds: {@code docker compose up} runs
     * all three, {@code ./demo up} Prometheus alone (where it is installed).
     *
     * @param prometheusAlerts the path of Prometheus's alerts page, the one that answers: {@code /alerts} (Prometheus
     *     3, and upstream 2.x), or {@code /classic/alerts} (Debian's 2.x, built without the new UI); null while neither
     *     answers
     * @param grafana whether Grafana answers
     * @param kafkaUi whether Kafka UI answers
     */
    public record Tools(@Nullable String prometheusAlerts, boolean grafana, boolean kafkaUi, boolean zipkin) {

        static final Tools NONE = new Tools(null, false, false, false);
    }
}
