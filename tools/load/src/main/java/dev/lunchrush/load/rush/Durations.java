package dev.lunchrush.load.rush;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people type them: {@code 30s}, {@code 2m}, {@code 1m30s}, {@code 500ms}, {@code 1h}, or plain seconds;
 * the command line's flags and the control room's JSON read them alike.
 */
public final class Durations {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");

    private Durations() {
    }

    /** The duration, positive; an {@link IllegalArgumentException} saying how to write one otherwise. */
    public static Duration parse(String value) {
        String text = value.strip().toLowerCase();
        if (text.matches("\\d+(\\.\\d+)?")) {
            return positive(Duration.ofMillis(Math.round(Double.parseDouble(text) * 1000)), value);
        }
        Matcher matcher = PART.matcher(text);
        int position = 0;
        double millis = 0;
        while (matcher.find() && matcher.start() == position) {
            double amount = Double.parseDouble(matcher.group(1));
            millis += amount * switch (matcher.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            position = matcher.end();
        }
        if (position == 0 || position != text.length()) {
            throw new IllegalArgumentException("'" + value + "' is not a duration; write it like 30s, 2m, 1m30s or 500ms");
        }
        // beyond what a long holds, the longest Duration of milliseconds: the caller's bounds then say how long is too long
        return positive(Duration.ofMillis(Math.round(millis)), value);
    }

    /** A duration as {@link #parse} reads it back: {@code 1m30s}, {@code 24h}, {@code 500ms}; {@code 0s} for none. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis == 0) {
            return "0s";
        }
        StringBuilder text = new StringBuilder();
        long[] amounts = {millis / 3_600_000, millis / 60_000 % 60, millis / 1_000 % 60, millis % 1_000};
        String[] units = {"h", "m", "s", "ms"};
        for (int i = 0; i < units.length; i++) {
            if (amounts[i] != 0) {
                text.append(amounts[i]).append(units[i]);
            }
        }
        return text.toString();
    }

    private static Duration positive(Duration duration, String value) {
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("'" + value + "': a duration must be positive");
        }
        return duration;
    }
}
