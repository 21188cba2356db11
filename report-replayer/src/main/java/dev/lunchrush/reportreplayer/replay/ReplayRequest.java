package dev.lunchrush.reportreplayer.replay;

import org.jspecify.annotations.Nullable;

/**
 * {@code POST /admin/replays}: strings, so that a malformed date or zone is answered with a 400
 * naming the field rather than a generic "unreadable body".
 *
 * @param date {@code yyyy-MM-dd}
 * @param zone an IANA zone id; the configured zone (default UTC) when absent
 */
record ReplayRequest(@Nullable String date, @Nullable String zone) {
}
