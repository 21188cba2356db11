package dev.lunchrush.load.backfill;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A backfilled day has the asked orders, in the hours of a delivery day, local to its zone. */
class DayShapeTests {

    private static long[] perHour(List<Instant> instants, ZoneId zone) {
        long[] hours = new long[24];
        instants.forEach(instant -> hours[instant.atZone(zone).getHour()]++);
        return hours;
    }

    @Test
    void aDayHasExactlyTheAskedOrdersWithTheLunchPeakOnTopAndAnEveningPeak() {
        ZoneId utc = ZoneId.of("UTC");
        LocalDate day = LocalDate.of(2026, 11, 26);
        List<Instant> instants = DayShape.placements(day, utc, 20_000, new Random(7));

        assertThat(instants).hasSize(20_000).isSorted();
        assertThat(instants).allSatisfy(instant -> assertThat(instant.atZone(utc).toLocalDate()).isEqualTo(day));
        long[] hours = perHour(instants, utc);
        long busiest = 0;
        for (int hour = 0; hour < 24; hour++) {
            if (hours[hour] > hours[(int) busiest]) {
                busiest = hour;
            }
        }
        assertThat(busiest).isEqualTo(12);
        // lunch is several times a quiet afternoon hour, and the evening peak stands above its neighbours
        assertThat(hours[12]).isGreaterThan(4 * hours[15]);
        assertThat(hours[19]).isGreaterThan(hours[16]).isGreaterThan(hours[22]);
        assertThat(hours[3]).isLessThan(hours[12] / 50);
        // half of the lunch hour's orders fall in the lesson's rush, 12:20-12:35
        long rush = instants.stream().map(instant -> instant.atZone(utc).toLocalTime())
                .filter(time -> time.getHour() == 12 && time.getMinute() >= 20 && time.getMinute() < 35).count();
        assertThat((double) rush / hours[12]).isBetween(0.55, 0.70);
    }

    @Test
    void hoursAreLocalAndADstDayKeepsTheTotal() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        LocalDate shortDay = LocalDate.of(2026, 3, 29);
        List<Instant> instants = DayShape.placements(shortDay, paris, 10_001, new Random(3));

        assertThat(instants).hasSize(10_001);
        assertThat(instants).allSatisfy(instant -> assertThat(instant.atZone(paris).toLocalDate()).isEqualTo(shortDay));
        long[] hours = perHour(instants, paris);
        assertThat(hours[2]).isZero(); // 02:00-02:59 does not exist that day in Paris
        assertThat(hours[12]).isEqualTo(java.util.Arrays.stream(hours).max().orElseThrow());
    }
}
