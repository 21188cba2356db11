package dev.lunchrush.lesson;

/** How the lesson writes its numbers: in the closing table, in its sentences, and a rate or a speed as typed. */
public final class Figures {

    private Figures() {
    }

    /** A measured or predicted figure: "—" when unknown, "never" when infinite, one decimal below 100. */
    public static String number(double value) {
        if (Double.isNaN(value)) {
            return "—";
        }
        if (Double.isInfinite(value)) {
            return "never";
        }
        return Math.abs(value) >= 100 ? "%,.0f".formatted(value) : "%,.1f".formatted(value);
    }

    /** A signed difference in %, or nothing when there is none to tell. */
    public static String percent(double value) {
        return Double.isNaN(value) ? "" : "%+.1f%%".formatted(value);
    }

    /** A rate or a speed as typed: {@code 10}, not {@code 10.0}; one too large for a long as Java writes it ({@code 1.0E30}). */
    public static String trim(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e18 ? String.valueOf((long) value) : String.valueOf(value);
    }
}
