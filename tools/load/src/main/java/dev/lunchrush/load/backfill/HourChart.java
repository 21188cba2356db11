package dev.lunchrush.load.backfill;

/** Orders per hour as a small text bar chart, one line per hour. */
public final class HourChart {

    private static final int WIDTH = 50;

    private HourChart() {
    }

    public static String render(long[] perHour) {
        long max = 1;
        for (long count : perHour) {
            max = Math.max(max, count);
        }
        StringBuilder chart = new StringBuilder();
        for (int hour = 0; hour < perHour.length; hour++) {
            int length = (int) Math.round((double) perHour[hour] * WIDTH / max);
            chart.append("%02d:00 %10s %s%n".formatted(hour, "%,d".formatted(perHour[hour]), "#".repeat(length)));
        }
        return chart.toString();
    }
}
