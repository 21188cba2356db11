package dev.lunchrush.analyticsdashboard.processing;

import java.util.Map;

/**
 * A day's numbers, the same JSON as the report replayer's report: orders per kitchen, orders per
 * local hour ("00" to "23", every hour present), portions (sum of quantities) per dish.
 */
public record DayReport(String date, String zone, long totalOrders, Map<String, Long> ordersPerKitchen,
        Map<String, Long> ordersPerHour, Map<String, Long> portionsPerDish) {
}
