package dev.lunchrush.reportreplayer.report;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderTally;

/**
 * Adds up one day's orders. Orders outside [day start, next day start) in the zone are ignored, so
 * the caller may hand it every record it read. Not thread-safe: each reader of a replay feeds a builder of its
 * own, and the builders are merged at the end.
 */
public class DayReportBuilder {

    private static final String[] HOURS = new String[24];

    static {
        for (int hour = 0; hour < 24; hour++) {
            HOURS[hour] = String.format("%02d", hour);
        }
    }

    private final LocalDate date;
    private final ZoneId zone;
    private final ZoneRules rules;
    private final Instant from;
    private final Instant to;
    private final long[] perHour = new long[24];
    /** Counters looked up by every order, sorted only when the report is built. */
    private final Map<String, long[]> perKitchenPerHour = new HashMap<>();
    private final Map<String, long[]> portionsPerDish = new HashMap<>();
    private final DistinctTexts customers = new DistinctTexts();
    private long total;
    private long portions;
    private @Nullable Instant first;
    private @Nullable Instant last;

    public DayReportBuilder(LocalDate date, ZoneId zone) {
        this.date = date;
        this.zone = zone;
        this.rules = zone.getRules();
        this.from = date.atStartOfDay(zone).toInstant();
        this.to = date.plusDays(1).atStartOfDay(zone).toInstant();
    }

    public Instant from() {
        return from;
    }

    public Instant to() {
        return to;
    }

    public boolean covers(Instant instant) {
        return !instant.isBefore(from) && instant.isBefore(to);
    }

    /** @return whether the order was placed that day and counted */
    public boolean add(OrderTally order) {
        Instant placedAt = order.placedAt();
        if (!covers(placedAt)) {
            return false;
        }
        // the hour on the zone's clock at that instant, without a ZonedDateTime per order
        long localSeconds = placedAt.getEpochSecond() + rules.getOffset(placedAt).getTotalSeconds();
        int hour = (int) Math.floorMod(Math.floorDiv(localSeconds, 3600), 24);
        total++;
        perHour[hour]++;
        perKitchenPerHour.computeIfAbsent(order.kitchenId(), kitchen -> new long[24])[hour]++;
        for (OrderItem item : order.items()) {
            portionsPerDish.computeIfAbsent(item.dish(), dish -> new long[1])[0] += item.quantity();
            portions += item.quantity();
        }
        if (order.customerId() != null) {
            customers.add(order.customerId());
        }
        widen(placedAt, placedAt);
        return true;
    }

    /** Adds what {@code other} counted (the same day in the same zone: another share of the log) to this one. */
    public void merge(DayReportBuilder other) {
        if (!date.equals(other.date) || !zone.equals(other.zone)) {
            throw new IllegalArgumentException("cannot merge " + other.date + " in " + other.zone + " into " + date
                    + " in " + zone);
        }
        total += other.total;
        portions += other.portions;
        for (int hour = 0; hour < 24; hour++) {
            perHour[hour] += other.perHour[hour];
        }
        other.perKitchenPerHour.forEach((kitchen, hours) -> {
            long[] mine = perKitchenPerHour.computeIfAbsent(kitchen, name -> new long[24]);
            for (int hour = 0; hour < 24; hour++) {
                mine[hour] += hours[hour];
            }
        });
        other.portionsPerDish.forEach((dish, count) -> portionsPerDish.computeIfAbsent(dish, name -> new long[1])[0]
                += count[0]);
        customers.addAll(other.customers);
        if (other.first != null && other.last != null) {
            widen(other.first, other.last);
        }
    }

    /** The first and last orders counted, widened to take in [{@code from}, {@code to}]. */
    private void widen(Instant from, Instant to) {
        if (first == null || from.isBefore(first)) {
            first = from;
        }
        if (last == null || to.isAfter(last)) {
            last = to;
        }
    }

    public DayReport build(DayReport.Provenance provenance) {
        Map<String, Long> perKitchen = new TreeMap<>();
        Map<String, Map<String, Long>> kitchenHours = new TreeMap<>();
        perKitchenPerHour.forEach((kitchen, hours) -> {
            long sum = 0;
            for (long count : hours) {
                sum += count;
            }
            perKitchen.put(kitchen, sum);
            kitchenHours.put(kitchen, hourMap(hours));
        });
        Map<String, Long> perDish = new TreeMap<>();
        portionsPerDish.forEach((dish, count) -> perDish.put(dish, count[0]));
        String busiest = null;
        long most = 0;
        for (int hour = 0; hour < 24; hour++) {
            if (perHour[hour] > most) {
                most = perHour[hour];
                busiest = HOURS[hour];
            }
        }
        return new DayReport(date.toString(), zone.getId(), total, perKitchen, hourMap(perHour),
                perDish, portions, customers.size(), kitchenHours, first, last, busiest,
                total == 0 ? 0 : (double) portions / total, provenance);
    }

    private static Map<String, Long> hourMap(long[] counts) {
        Map<String, Long> hours = new LinkedHashMap<>();
        for (int hour = 0; hour < 24; hour++) {
            hours.put(HOURS[hour], counts[hour]);
        }
        return hours;
    }
}
