package dev.lunchrush.controlroom.lesson;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.ToIntFunction;

import org.jspecify.annotations.Nullable;

/**
 * Which of the tools beside the stack answer, for the page's links: Prometheus's alerts page, Grafana, Kafka UI, Zipkin
 * (which both ways of running the stack run, unless {@code ./demo up --no-tracing}).
 * {@code docker compose up} runs all three; {@code ./demo up} runs the machine's Prometheus, if installed, and neither
 * of the others, so a link to them would lead nowhere. And Prometheus keeps its alerts page at {@code /alerts} in
 * version 3 (compose's) and in upstream 2.x builds, but Debian's 2.x package is built without that UI and answers 404
 * there; its page is {@code /classic/alerts}. Rather than guess from the version, the probe asks for the page itself:
 * {@code /alerts}, else {@code /classic/alerts}. Asked at most every {@link #MAX_AGE} (a tool that starts late, as
 * Grafana after Prometheus in compose, shows within that), not at every poll.
 */
final class ToolsProbe {

    static final Duration MAX_AGE = Duration.ofSeconds(10);
    static final String ALERTS = "/alerts";
    static final String CLASSIC_ALERTS = "/classic/alerts";

    private final ToIntFunction<String> prometheus;
    private final ToIntFunction<String> grafana;
    private final ToIntFunction<String> kafkaUi;
    private final ToIntFunction<String> zipkin;
    private final Clock clock;
    private Lesson.Tools last = Lesson.Tools.NONE;
    private @Nullable Instant askedAt;

    /**
     * Each tool as the HTTP status of a GET of a path there, 0 when nothing answers.
     */
    ToolsProbe(ToIntFunction<String> prometheus, ToIntFunction<String> grafana, ToIntFunction<String> kafkaUi,
            ToIntFunction<String> zipkin, Clock clock) {
        this.prometheus = prometheus;
        this.grafana = grafana;
        this.kafkaUi = kafkaUi;
        this.zipkin = zipkin;
        this.clock = clock;
    }

    /** The tools now, or as asked less than {@link #MAX_AGE} ago; the questions go in parallel on {@code pool}. */
    synchronized Lesson.Tools tools(Executor pool) {
        Instant now = clock.instant();
        if (askedAt != null && Duration.between(askedAt, now).compareTo(MAX_AGE) < 0) {
            return last;
        }
        CompletableFuture<Integer> alerts = ask(prometheus, ALERTS, pool);
        CompletableFuture<Integer> classicAlerts = ask(prometheus, CLASSIC_ALERTS, pool);
        CompletableFuture<Integer> grafanaHealth = ask(grafana, "/api/health", pool);
        CompletableFuture<Integer> kafkaUiHealth = ask(kafkaUi, "/actuator/health", pool);
        CompletableFuture<Integer> zipkinHealth = ask(zipkin, "/health", pool);
        String alertsPage = ok(alerts.join()) ? ALERTS : ok(classicAlerts.join()) ? CLASSIC_ALERTS : null;
        last = new Lesson.Tools(alertsPage, answers(grafanaHealth.join()), answers(kafkaUiHealth.join()),
                ok(zipkinHealth.join()));
        askedAt = now;
        return last;
    }

    private CompletableFuture<Integer> ask(ToIntFunction<String> tool, String path, Executor pool) {
        return CompletableFuture.supplyAsync(() -> tool.applyAsInt(path), pool);
    }

    private static boolean ok(int status) {
        return status >= 200 && status < 300;
    }

    /** It answers as a web application does: a page, or a redirect to its login page. */
    private static boolean answers(int status) {
        return status >= 200 && status < 400;
    }
}
