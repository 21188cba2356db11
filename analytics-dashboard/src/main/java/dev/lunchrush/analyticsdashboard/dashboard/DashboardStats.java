package dev.lunchrush.analyticsdashboard.dashboard;

import java.util.Map;

/** {@code GET /api/stats}. */
record DashboardStats(Map<String, Long> received, long total, int capacityPerSecond, double processedPerSecond,
        long deadLettered, String zone) {
}
