package dev.lunchrush.load.backfill;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * When a food-delivery day's orders are placed: few at night, a small morning, the lunch peak
 * (12:00-13:59, strongest from 12:20 to 12:35, the lesson's rush) and an evening peak (19:00-20:59),
 * in the local time of a zone. The hours are the day's real hours in that zone, so a DST day has 23 or 25.
 */
final class DayShape {

    /** Relative weight of each local hour, 00 to 23. */
    static final double[] HOUR_WEIGHTS = {
        0.4, 0.2, 0.1, 0.1, 0.1, 0.2, 0.4, 0.8, 1.2, 1.4, 1.8, 4.0,
        14.0, 9.0, 3.0, 2.0, 2.0, 3.0, 5.5, 8.0, 6.5, 3.0, 1.6, 0.8};

    private DayShape() {
    }

    /**
     * Exactly {@code orders} instants within {@code day} in {@code zone}, in time order: spread over the
     * hours by their weights (largest remainder, so the total is exact), at random moments within each hour.
     */
    static List<Instant> placements(LocalDate day, ZoneId zone, int orders, RandomGenerator random) {
        ZonedDateTime start = day.atStartOfDay(zone);
        ZonedDateTime end = day.plusDays(1).atStartOfDay(zone);
        List<Instant> hourStarts = new ArrayList<>();
        for (Instant hour = start.toInstant(); hour.isBefore(end.toInstant()); hour = hour.plusSeconds(3600)) {
            hourStarts.add(hour);
        }
        double[] weights = new double[hourStarts.size()];
        double total = 0;
        for (int i = 0; i < weights.length; i++) {
            weights[i] = HOUR_WEIGHTS[hourStarts.get(i).atZone(zone).getHour()];
            total += weights[i];
        }
        long[] counts = new long[weights.length];
        double[] remainders = new double[weights.length];
        long assigned = 0;
        for (int i = 0; i < weights.length; i++) {
            double exact = orders * weights[i] / total;
            counts[i] = (long) Math.floor(exact);
            remainders[i] = exact - counts[i];
            assigned += counts[i];
        }
        while (assigned < orders) {
            int best = 0;
            for (int i = 1; i < remainders.length; i++) {
                if (remainders[i] > remainders[best]) {
                    best = i;
                }
            }
            counts[best]++;
            remainders[best] = -1;
            assigned++;
        }
        List<Instant> instants = new ArrayList<>(orders);
        for (int i = 0; i < counts.length; i++) {
            Instant hourStart = hourStarts.get(i);
            boolean lunchHour = hourStart.atZone(zone).getHour() == 12;
            for (long n = 0; n < counts[i]; n++) {
                instants.add(hourStart.plusMillis(millisWithinHour(lunchHour, random)));
            }
        }
        instants.sort(null);
        return instants;
    }

    /** Uniform in the hour; in the lunch hour, half of the orders fall in the lesson's 12:20-12:35 rush. */
    private static long millisWithinHour(boolean lunchHour, RandomGenerator random) {
        if (lunchHour && random.nextBoolean()) {
            return 20 * 60_000L + random.nextLong(15 * 60_000L);
        }
        return random.nextLong(3_600_000L);
    }
}
