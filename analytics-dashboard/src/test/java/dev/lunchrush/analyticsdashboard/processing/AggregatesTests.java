package dev.lunchrush.analyticsdashboard.processing;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.Import;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderItem;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's SQL on the schema it ships ({@code schema.sql}), in an embedded database and nothing else: a
 * zone's day and hours from the minute counts, a batch counted once with the offsets it moves, and offsets of
 * another log forgotten. Reading the queues and the log into these tables is {@code AnalyticsDashboardTests}'.
 */
@JdbcTest
@Import(Aggregates.class)
class AggregatesTests {

    private static final ZoneId KATHMANDU = ZoneId.of("Asia/Kathmandu");

    @Autowired
    private Aggregates aggregates;

    @Test
    void dayReportsPutLocalMidnightInTheRightDay() {
        LocalDate day = LocalDate.of(2024, 3, 10);
        String kitchen = "kd-" + UUID.randomUUID();
        aggregates.apply("shared-queue", List.of(
                Incoming.of(order(kitchen, day.atStartOfDay(KATHMANDU).toInstant())),
                Incoming.of(order(kitchen, day.atTime(LocalTime.of(23, 59, 59, 999_000_000)).atZone(KATHMANDU).toInstant())),
                Incoming.of(order(kitchen, day.plusDays(1).atStartOfDay(KATHMANDU).toInstant()))));

        DayReport first = aggregates.day(day, KATHMANDU);
        assertThat(first.date()).isEqualTo("2024-03-10");
        assertThat(first.zone()).isEqualTo("Asia/Kathmandu");
        assertThat(first.totalOrders()).isEqualTo(2);
        assertThat(first.ordersPerKitchen()).containsExactly(Map.entry(kitchen, 2L));
        assertThat(first.ordersPerHour()).hasSize(24).containsEntry("00", 1L).containsEntry("23", 1L);
        assertThat(first.portionsPerDish()).containsEntry("pad-thai", 4L).containsEntry("spring-rolls", 2L);
        assertThat(aggregates.day(day.plusDays(1), KATHMANDU).ordersPerHour()).containsEntry("00", 1L);
        // the same orders in UTC: local midnight of the 10th is 18:15 on the 9th
        assertThat(aggregates.day(day.minusDays(1), ZoneOffset.UTC).ordersPerHour()).containsEntry("18", 1L);
        assertThat(aggregates.day(LocalDate.of(2024, 1, 1), ZoneOffset.UTC).totalOrders()).isZero();
    }

    @Test
    void aBatchHandedOverAgainIsCountedOnceAndMovesTheOffsets() {
        String topic = "orders-" + UUID.randomUUID();
        TopicPartition partition = new TopicPartition(topic, 0);
        String kitchen = "kb-" + UUID.randomUUID();
        Instant at = Instant.parse("2024-05-01T12:00:00Z");
        List<Incoming> batch = List.of(new Incoming(order(kitchen, at), partition, 0),
                new Incoming(order(kitchen, at), partition, 1));

        assertThat(aggregates.apply("kafka", batch)).isEqualTo(2);
        assertThat(aggregates.apply("kafka", batch)).as("the same records again").isZero();
        assertThat(aggregates.apply("kafka", List.of(batch.get(1), new Incoming(order(kitchen, at), partition, 2))))
                .as("one already counted, one new").isEqualTo(1);

        assertThat(aggregates.day(LocalDate.of(2024, 5, 1), ZoneOffset.UTC).ordersPerKitchen()).containsEntry(kitchen, 3L);
        assertThat(aggregates.storedOffsets(topic)).containsExactly(Map.entry(partition, 3L));
        assertThat(aggregates.received()).containsEntry("kafka", 3L);
    }

    @Test
    void offsetsOfAnotherLogUnderTheSameNameAreForgotten() {
        String topic = "orders-" + UUID.randomUUID();
        TopicPartition partition = new TopicPartition(topic, 0);
        aggregates.apply("kafka", List.of(new Incoming(order("k1", Instant.parse("2024-05-01T12:00:00Z")), partition, 41)));

        assertThat(aggregates.storedOffsets(topic, "first-id")).as("offsets stored before any id: this log's")
                .containsExactly(Map.entry(partition, 42L));
        assertThat(aggregates.storedOffsets(topic, "first-id")).containsExactly(Map.entry(partition, 42L));
        assertThat(aggregates.storedOffsets(topic, "second-id")).as("the topic made again").isEmpty();
    }

    private static OrderEvent order(String kitchen, Instant placedAt) {
        return new OrderEvent(UUID.randomUUID().toString(), placedAt, kitchen, "c-1042",
                List.of(new OrderItem("pad-thai", 2), new OrderItem("spring-rolls", 1)), "12 Mill Lane", null,
                OrderEvent.ORIGIN_LIVE, "aggregates-test", 0);
    }
}
