package dev.lunchrush.load.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.load.backfill.HourChart;
import dev.lunchrush.localstack.access.ServiceClient;

/** A day's report from the report replayer ({@code GET /api/reports/DAY}) as text for the console. */
final class ReplayReport {

    private ReplayReport() {
    }

    /** The report as text: totals, per kitchen, per hour as bars, per dish, and the rest. */
    static String render(JsonNode report) {
        StringBuilder text = new StringBuilder();
        text.append("Report for %s (%s)%n".formatted(ServiceClient.text(report, "date"), ServiceClient.text(report, "zone")));
        text.append("  total orders      %,d%n".formatted(ServiceClient.number(report, "totalOrders")));
        if (report.has("totalPortions")) {
            text.append("  total portions    %,d%n".formatted(ServiceClient.number(report, "totalPortions")));
        }
        if (report.has("distinctCustomers")) {
            text.append("  customers         %,d%n".formatted(ServiceClient.number(report, "distinctCustomers")));
        }
        if (report.has("averageItemsPerOrder")) {
            text.append("  portions/order    %.2f%n".formatted(ServiceClient.decimal(report, "averageItemsPerOrder")));
        }
        for (String field : List.of("busiestHour", "firstOrderAt", "lastOrderAt")) {
            String value = ServiceClient.text(report, field);
            if (!value.isEmpty()) {
                text.append("  %-17s %s%n".formatted(field.replaceAll("([A-Z])", " $1").toLowerCase(), value));
            }
        }
        text.append("%nOrders per kitchen:%n".formatted());
        sortedDescending(report.path("ordersPerKitchen"))
                .forEach(entry -> text.append("  %-20s %,10d%n".formatted(entry.getKey(), entry.getValue())));
        text.append("%nOrders per hour:%n".formatted());
        long[] perHour = new long[24];
        report.path("ordersPerHour").forEachEntry((hour, count) -> {
            try {
                int h = Integer.parseInt(hour);
                if (h >= 0 && h < 24) {
                    perHour[h] = count.asLong(0);
                }
            }
            catch (NumberFormatException ignored) {
                // not an hour key
            }
        });
        HourChart.render(perHour).lines().forEach(line -> text.append("  ").append(line).append(System.lineSeparator()));
        text.append("%nPortions per dish:%n".formatted());
        sortedDescending(report.path("portionsPerDish"))
                .forEach(entry -> text.append("  %-20s %,10d%n".formatted(entry.getKey(), entry.getValue())));
        return text.toString();
    }

    private static List<Map.Entry<String, Long>> sortedDescending(JsonNode counts) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>();
        counts.forEachEntry((key, value) -> entries.add(Map.entry(key, value.asLong(0))));
        entries.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return entries;
    }
}
