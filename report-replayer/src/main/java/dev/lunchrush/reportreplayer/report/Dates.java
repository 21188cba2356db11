package dev.lunchrush.reportreplayer.report;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.reportreplayer.web.Problems;

/** Parses the day and zone of a request, or answers 400 naming the field. */
public final class Dates {

    private Dates() {
    }

    public static LocalDate date(@Nullable String text) {
        if (text == null || text.isBlank()) {
            throw Problems.invalid("date", "date is required, as yyyy-MM-dd");
        }
        try {
            return LocalDate.parse(text);
        }
        catch (DateTimeParseException ex) {
            throw Problems.invalid("date", "'" + text + "' is not a date: expected yyyy-MM-dd, e.g. 2026-11-26");
        }
    }

    public static ZoneId zone(String text) {
        try {
            return ZoneId.of(text);
        }
        catch (DateTimeException ex) {
            throw Problems.invalid("zone", "'" + text + "' is not a known time zone: use an IANA id such as Europe/Paris or UTC");
        }
    }
}
