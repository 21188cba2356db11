package dev.lunchrush.kitchenscreen.screen;

import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/stats}. {@code expired} counts live orders placed longer ago than the screen remembers,
 * not shown. {@code placed} is the order service's count (0 while it was never reached,
 * see {@code orderServiceReachable}); {@code reached} counts the live orders shown, once each.
 */
public record ScreenStats(
        Map<String, Long> received,
        long total,
        long placed,
        boolean orderServiceReachable,
        long reached,
        long missing,
        List<MissingOrder> missingOrders,
        long late,
        long duplicatesIgnored,
        long imported,
        long expired,
        long deadLettered,
        Latency latency) {

    /** Order-to-screen latency of live orders, placedAt to shown, since the start: count, mean, max, last. */
    public record Latency(long count, double meanMillis, double maxMillis, long lastMillis) {
    }
}
