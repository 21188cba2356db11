package dev.lunchrush.controlroom.lesson;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

import org.junit.jupiter.api.Test;

import dev.lunchrush.localstack.access.Endpoints;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's links to the tools beside the stack: shown only where a tool answers, and Prometheus's alerts page where
 * that Prometheus keeps it.
 */
class ToolsProbeTests {

    private static final URI PROMETHEUS = URI.create("http://prometheus:9090");
    private static final URI GRAFANA = URI.create("http://grafana:3000");
    private static final URI KAFKA_UI = URI.create("http://kafka-ui:8080/");
    private static final URI ZIPKIN = URI.create("http://zipkin:9411");
    private static final Executor NOW = Runnable::run;

    /** What each URL answers; a URL not listed has nothing listening (0). */
    private final Map<String, Integer> answers = new HashMap<>();
    private final AtomicInteger asked = new AtomicInteger();
    private final MovableClock clock = new MovableClock();
    private final ToolsProbe probe = new ToolsProbe(tool(PROMETHEUS), tool(GRAFANA), tool(KAFKA_UI), tool(ZIPKIN),
            clock);

    /** The tool at {@code base}, answering what {@link #answers} says for base + path. */
    private ToIntFunction<String> tool(URI base) {
        return path -> {
            asked.incrementAndGet();
            return answers.getOrDefault(Endpoints.resolve(base, path).toString(), 0);
        };
    }

    @Test
    void composeRunsEveryToolAndPrometheus3KeepsItsAlertsAtAlerts() {
        answers.put("http://prometheus:9090/alerts", 200);
        answers.put("http://prometheus:9090/classic/alerts", 404);
        answers.put("http://grafana:3000/api/health", 200);
        // Kafka UI behind its login form may redirect: it runs
        answers.put("http://kafka-ui:8080/actuator/health", 302);
        answers.put("http://zipkin:9411/health", 200);

        assertThat(probe.tools(NOW)).isEqualTo(new Lesson.Tools("/alerts", true, true, true));
    }

    @Test
    void debiansPrometheus2HasOnlyTheClassicPageAndDemoUpRunsNeitherGrafanaNorKafkaUi() {
        // Debian's prometheus 2.42 is built without the React UI: /alerts is a 404 there
        answers.put("http://prometheus:9090/alerts", 404);
        answers.put("http://prometheus:9090/classic/alerts", 200);
        answers.put("http://zipkin:9411/health", 200);

        assertThat(probe.tools(NOW)).isEqualTo(new Lesson.Tools("/classic/alerts", false, false, true));
    }

    @Test
    void upWithoutTracingRunsNoZipkinAndAZipkinStillStartingHasNoLink() {
        answers.put("http://prometheus:9090/classic/alerts", 200);
        assertThat(probe.tools(NOW).zipkin()).isFalse();
        answers.put("http://zipkin:9411/health", 503);
        clock.advance(ToolsProbe.MAX_AGE);
        assertThat(probe.tools(NOW).zipkin()).isFalse();
    }

    @Test
    void aPrometheusThatDoesNotAnswerHasNoLink() {
        answers.put("http://grafana:3000/api/health", 503);

        assertThat(probe.tools(NOW)).isEqualTo(new Lesson.Tools(null, false, false, false));
    }

    @Test
    void theToolsAreAskedAtMostEveryTenSecondsAndAToolThatStartsLateShowsThen() {
        answers.put("http://prometheus:9090/alerts", 200);
        assertThat(probe.tools(NOW).grafana()).isFalse();
        int first = asked.get();

        answers.put("http://grafana:3000/api/health", 200);
        clock.advance(ToolsProbe.MAX_AGE.minusMillis(1));
        assertThat(probe.tools(NOW).grafana()).as("asked less than 10 s ago: the same answer").isFalse();
        assertThat(asked.get()).isEqualTo(first);

        clock.advance(Duration.ofMillis(1));
        assertThat(probe.tools(NOW)).isEqualTo(new Lesson.Tools("/alerts", true, false, false));
        assertThat(asked.get()).isEqualTo(2 * first);
    }

    private static final class MovableClock extends Clock {

        private Instant now = Instant.parse("2026-12-06T12:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
