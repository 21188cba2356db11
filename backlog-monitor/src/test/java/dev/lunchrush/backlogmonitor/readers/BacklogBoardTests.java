package dev.lunchrush.backlogmonitor.readers;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BacklogBoardTests {

    private static final Instant NOW = Instant.parse("2026-11-26T12:35:00Z");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final BacklogBoard board = new BacklogBoard(registry, Clock.fixed(NOW, ZoneOffset.UTC),
            List.of(source("kafka"), source("rabbitmq")));

    @Test
    void exportsEachReaderAndDropsThemWhenTheirSourceGoesDown() {
        board.update("kafka", List.of(
                new ReaderBacklog("kafka:analytics-dashboard", "kafka", 135_000, NOW.minusSeconds(540).minusMillis(250), Map.of()),
                new ReaderBacklog("kafka:kitchen-screen", "kafka", 0, null, Map.of())));
        board.update("rabbitmq", List.of(new ReaderBacklog("rabbitmq:orders", "rabbitmq", 3, null, Map.of())));

        assertThat(unread("kafka:analytics-dashboard")).isEqualTo(135_000);
        assertThat(age("kafka:analytics-dashboard")).isEqualTo(540.25);
        assertThat(age("kafka:kitchen-screen")).isZero();
        assertThat(age("rabbitmq:orders")).as("backlog of unknown age").isNaN();
        assertThat(registry.get("backlog.source.up").tag("source", "kafka").gauge().value()).isEqualTo(1);

        board.down("kafka");

        assertThat(registry.find("backlog.unread.events").tag("reader", "kafka:analytics-dashboard").gauge()).isNull();
        assertThat(registry.get("backlog.source.up").tag("source", "kafka").gauge().value()).isZero();
        assertThat(unread("rabbitmq:orders")).isEqualTo(3);
        assertThat(board.readers()).extracting(ReaderBacklog::reader).containsExactly("rabbitmq:orders");
    }

    private double unread(String reader) {
        return registry.get("backlog.unread.events").tag("reader", reader).gauge().value();
    }

    private double age(String reader) {
        return registry.get("backlog.oldest.unread.age.seconds").tag("reader", reader).gauge().value();
    }

    private static BacklogSource source(String name) {
        return new BacklogSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Duration pollInterval() {
                return Duration.ofSeconds(1);
            }

            @Override
            public List<ReaderBacklog> poll() {
                return List.of();
            }
        };
    }
}
