package dev.lunchrush.reportreplayer.report;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderTally;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DayReportBuilderTests {

    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final DayReport.Provenance PROVENANCE = new DayReport.Provenance("t", Instant.EPOCH, Instant.EPOCH, 0, 0,
            Instant.EPOCH, Instant.EPOCH);

    @Test
    void theRepeatedHourOfTheAutumnChangeSharesOneKey() {
        // 2026-10-25 in Paris has 25 hours: 02:00-02:59 happens in CEST, then again in CET
        DayReportBuilder day = new DayReportBuilder(LocalDate.parse("2026-10-25"), PARIS);
        assertThat(day.add(order("2026-10-24T22:00:00Z"))).isTrue();    // 00:00 CEST
        assertThat(day.add(order("2026-10-25T00:30:00Z"))).isTrue();    // 02:30 CEST
        assertThat(day.add(order("2026-10-25T01:30:00Z"))).isTrue();    // 02:30 CET
        assertThat(day.add(order("2026-10-25T22:59:59.999Z"))).isTrue(); // 23:59:59.999 CET
        assertThat(day.add(order("2026-10-25T23:00:00Z"))).isFalse();   // the next day
        assertThat(day.add(order("2026-10-24T21:59:59.999Z"))).isFalse(); // the day before

        DayReport report = day.build(PROVENANCE);
        assertThat(report.ordersPerHour()).hasSize(24).containsEntry("00", 1L).containsEntry("02", 2L).containsEntry("23", 1L);
        assertThat(report.totalOrders()).isEqualTo(4);
        assertThat(report.busiestHour()).isEqualTo("02");
        assertThat(day.from()).isEqualTo(Instant.parse("2026-10-24T22:00:00Z"));
        assertThat(day.to()).isEqualTo(Instant.parse("2026-10-25T23:00:00Z"));
    }

    @Test
    void theSkippedHourOfTheSpringChangeStaysAtZero() {
        DayReportBuilder day = new DayReportBuilder(LocalDate.parse("2026-03-29"), PARIS);
        day.add(order("2026-03-29T00:59:59.999Z")); // 01:59:59.999 CET
        day.add(order("2026-03-29T01:00:00Z"));     // 03:00 CEST
        DayReport report = day.build(PROVENANCE);
        assertThat(report.ordersPerHour()).containsEntry("01", 1L).containsEntry("02", 0L).containsEntry("03", 1L);
        assertThat(report.averageItemsPerOrder()).isEqualTo(3.0);
    }

    @Test
    void sharesMergedGiveTheReportOfOneBuilderFedEverything() {
        LocalDate date = LocalDate.parse("2026-10-25");
        DayReportBuilder whole = new DayReportBuilder(date, PARIS);
        List<DayReportBuilder> shares = List.of(new DayReportBuilder(date, PARIS), new DayReportBuilder(date, PARIS),
                new DayReportBuilder(date, PARIS));
        Random random = new Random(42);
        Instant start = Instant.parse("2026-10-24T21:00:00Z"); // an hour before the day, to an hour after it
        for (int i = 0; i < 3_000; i++) {
            Instant placedAt = start.plusSeconds(random.nextInt(27 * 3600));
            // customers shared between the shares: the distinct count must not add up duplicates
            String customer = random.nextInt(10) == 0 ? null : "c-" + random.nextInt(400);
            OrderTally order = new OrderTally(placedAt, "k" + random.nextInt(5), customer,
                    List.of(new OrderItem("dish-" + random.nextInt(12), 1 + random.nextInt(3))));
            whole.add(order);
            // the first share gets nothing: merging an empty builder (no first, no last) must change nothing
            shares.get(1 + random.nextInt(2)).add(order);
        }
        DayReportBuilder merged = new DayReportBuilder(date, PARIS);
        shares.forEach(merged::merge);

        DayReport expected = whole.build(PROVENANCE);
        assertThat(merged.build(PROVENANCE)).isEqualTo(expected);
        assertThat(expected.totalOrders()).isBetween(2_500L, 2_900L);
        assertThat(expected.distinctCustomers()).isBetween(350L, 400L);
    }

    @Test
    void refusesToMergeAnotherDay() {
        DayReportBuilder day = new DayReportBuilder(LocalDate.parse("2026-10-25"), PARIS);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> day.merge(new DayReportBuilder(LocalDate.parse("2026-10-26"), PARIS)));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> day.merge(new DayReportBuilder(LocalDate.parse("2026-10-25"), ZoneId.of("UTC"))));
    }

    private static OrderTally order(String placedAt) {
        return new OrderTally(Instant.parse(placedAt), "k1", "c-1", List.of(new OrderItem("ramen", 2), new OrderItem("gyoza", 1)));
    }
}
