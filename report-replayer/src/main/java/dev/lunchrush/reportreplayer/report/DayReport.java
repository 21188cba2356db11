package dev.lunchrush.reportreplayer.report;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A day's orders as the accountant reads them. The first six fields are the contract shared with
 * the analytics dashboard's {@code GET /api/days/{date}} (same names, same "00".."23" hour keys), so
 * that the two can be compared number for number.
 *
 * @param date the day, {@code yyyy-MM-dd}, in {@code zone}
 * @param zone the zone whose midnight bounds the day and whose clock gives the hours
 * @param totalOrders orders placed that day
 * @param ordersPerKitchen orders per kitchen id
 * @param ordersPerHour orders per local hour, all 24 keys "00".."23"; on the 25-hour day of a DST
 *     change the repeated hour's two occurrences share one key, on the 23-hour day the skipped hour is 0
 * @param portionsPerDish portions (sum of quantities) per dish
 * @param totalPortions portions of all dishes
 * @param distinctCustomers customers who ordered at least once that day
 * @param ordersPerKitchenPerHour per kitchen, orders per local hour (all 24 keys)
 * @param firstOrderAt when the day's first order was placed; null on a day without orders
 * @param lastOrderAt when the day's last order was placed; null on a day without orders
 * @param busiestHour the hour with most orders (the earliest of equals); null on a day without orders
 * @param averageItemsPerOrder portions per order (items counted by quantity); 0 on a day without orders
 * @param replay how this report was produced
 */
public record DayReport(
        String date,
        String zone,
        long totalOrders,
        Map<String, Long> ordersPerKitchen,
        Map<String, Long> ordersPerHour,
        Map<String, Long> portionsPerDish,
        long totalPortions,
        long distinctCustomers,
        Map<String, Map<String, Long>> ordersPerKitchenPerHour,
        @Nullable Instant firstOrderAt,
        @Nullable Instant lastOrderAt,
        @Nullable String busiestHour,
        double averageItemsPerOrder,
        Provenance replay) {

    /**
     * @param replayId the replay that produced the report
     * @param from the day's first instant (inclusive)
     * @param to the next day's first instant (exclusive)
     * @param recordsRead records read from the log to build it (including other days' records in the range)
     * @param poisonRecords records of the range that were not order events, skipped
     * @param startedAt when the replay started
     * @param finishedAt when the report was complete
     */
    public record Provenance(String replayId, Instant from, Instant to, long recordsRead, long poisonRecords,
            Instant startedAt, Instant finishedAt) {
    }
}
