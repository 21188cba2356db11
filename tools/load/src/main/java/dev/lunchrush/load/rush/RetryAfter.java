package dev.lunchrush.load.rush;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** How long a 429 asks to wait before the same order is sent again, from its {@code Retry-After} header. */
final class RetryAfter {

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;
    private static final Duration ABSENT = Duration.ofSeconds(1);
    private static final Duration LONGEST = Duration.ofSeconds(30);

    private RetryAfter() {
    }

    /** In seconds (decimals tolerated) or as an HTTP date; 1 s when absent or unreadable; between 0 and 30 s. */
    static Duration of(Optional<String> header) {
        Duration wait = ABSENT;
        if (header.isPresent()) {
            String value = header.get().strip();
            try {
                wait = Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
            }
            catch (NumberFormatException notSeconds) {
                try {
                    wait = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(value, HTTP_DATE));
                }
                catch (DateTimeParseException notDate) {
                    // keep the default
                }
            }
        }
        if (wait.isNegative()) {
            return Duration.ZERO;
        }
        return wait.compareTo(LONGEST) > 0 ? LONGEST : wait;
    }
}
