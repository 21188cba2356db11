package dev.lunchrush.reportreplayer.replay;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderLimits;

/**
 * {@code POST /admin/replays}: strings, so that a malformed date or zone is answered with a 400 naming the field
 * rather than a generic "unreadable body". The constraints are declared here once: the controller checks them
 * ({@code @Valid}) and the OpenAPI document shows them; whether the day is one of the calendar, and the zone a known
 * one, is {@link ReplayService}'s to say.
 *
 * @param date {@code yyyy-MM-dd}
 * @param zone an IANA zone id; the configured zone (default UTC) when absent
 */
record ReplayRequest(
        // the pattern bounds its length too: one message for a text that is no date, whatever its length
        @NotBlank(message = OrderLimits.REQUIRED) @Pattern(regexp = ReplayRequest.DATE, message = "must be a date as yyyy-MM-dd, e.g. 2026-11-26")
        @Nullable String date,
        @Size(max = ReplayRequest.MAX_ZONE_LENGTH, message = OrderLimits.AT_MOST_CHARACTERS)
        @Nullable String zone) {

    /** A day as {@code yyyy-MM-dd}. */
    static final String DATE = "[0-9]{4}-[0-9]{2}-[0-9]{2}";

    /** The longest IANA zone id is 32 characters; the room beyond is for offsets and aliases. */
    static final int MAX_ZONE_LENGTH = 64;
}
