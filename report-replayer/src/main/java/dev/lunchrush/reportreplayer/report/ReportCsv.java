package dev.lunchrush.reportreplayer.report;

import java.util.Locale;
import java.util.Map;

/**
 * A report as CSV for a spreadsheet: one row per figure, {@code section,kitchen,key,value}, so that
 * every figure of the JSON is there and a pivot table gets any view of it.
 */
final class ReportCsv {

    private ReportCsv() {
    }

    static String of(DayReport report) {
        StringBuilder csv = new StringBuilder("section,kitchen,key,value\n");
        row(csv, "date", "", "", report.date());
        row(csv, "zone", "", "", report.zone());
        row(csv, "totalOrders", "", "", report.totalOrders());
        row(csv, "totalPortions", "", "", report.totalPortions());
        row(csv, "distinctCustomers", "", "", report.distinctCustomers());
        row(csv, "averageItemsPerOrder", "", "", String.format(Locale.ROOT, "%.4f", report.averageItemsPerOrder()));
        row(csv, "firstOrderAt", "", "", report.firstOrderAt() == null ? "" : report.firstOrderAt());
        row(csv, "lastOrderAt", "", "", report.lastOrderAt() == null ? "" : report.lastOrderAt());
        row(csv, "busiestHour", "", "", report.busiestHour() == null ? "" : report.busiestHour());
        report.ordersPerHour().forEach((hour, count) -> row(csv, "ordersPerHour", "", hour, count));
        report.ordersPerKitchen().forEach((kitchen, count) -> row(csv, "ordersPerKitchen", kitchen, "", count));
        report.portionsPerDish().forEach((dish, count) -> row(csv, "portionsPerDish", "", dish, count));
        for (Map.Entry<String, Map<String, Long>> kitchen : report.ordersPerKitchenPerHour().entrySet()) {
            kitchen.getValue().forEach((hour, count) -> row(csv, "ordersPerKitchenPerHour", kitchen.getKey(), hour, count));
        }
        return csv.toString();
    }

    private static void row(StringBuilder csv, String section, String kitchen, String key, Object value) {
        csv.append(section).append(',').append(cell(kitchen)).append(',').append(cell(key)).append(',')
                .append(cell(String.valueOf(value))).append('\n');
    }

    private static String cell(String text) {
        if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
