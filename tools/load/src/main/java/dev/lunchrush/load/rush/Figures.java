package dev.lunchrush.load.rush;

import org.HdrHistogram.Histogram;

/** How the rush writes its numbers: in the lesson's table, in its sentences, and the latencies in milliseconds. */
public final class Figures {

    private Figures() {
    }

    /** A measured or predicted figure: "—" when unknown, "never" when infinite, one decimal below 100. */
    static String number(double value) {
        if (Double.isNaN(value)) {
            return "—";
        }
        if (Double.isInfinite(value)) {
            return "never";
        }
        return Math.abs(value) >= 100 ? "%,.0f".formatted(value) : "%,.1f".formatted(value);
    }

    /** A signed difference in %, or nothing when there is none to tell. */
    static String percent(double value) {
        return Double.isNaN(value) ? "" : "%+.1f%%".formatted(value);
    }

    /** A rate or a speed as typed: {@code 10}, not {@code 10.0}; one too large for a long as Java writes it ({@code 1.0E30}). */
    public static String trim(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e18 ? String.valueOf((long) value) : String.valueOf(value);
    }

    /** A percentile of a histogram of microseconds, in milliseconds; 0 for an empty one. */
    static double millis(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
