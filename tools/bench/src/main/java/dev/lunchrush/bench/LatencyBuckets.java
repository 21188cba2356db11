package dev.lunchrush.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * The kitchen screen's {@code order_to_screen_latency_seconds} histogram (placedAt → shown), as its Prometheus
 * endpoint has it: cumulative counts per upper bound. Two readings subtracted give the orders in between;
 * a percentile is the upper bound of the bucket it falls in (the buckets are about 10-30% apart).
 */
record LatencyBuckets(TreeMap<Double, Long> cumulative) {

    private static final Pattern BUCKET = Pattern.compile("^order_to_screen_latency_seconds_bucket\\{[^}]*le=\"([^\"]+)\"[^}]*}\\s+(\\S+)");

    /** The kitchen screen's latency histogram now; a {@link DemoException} when it does not answer or refuses. */
    static LatencyBuckets scrape(ServiceClient kitchenScreen) {
        TreeMap<Double, Long> buckets = new TreeMap<>();
        for (String line : kitchenScreen.getText("/actuator/prometheus").split("\n")) {
            Matcher m = BUCKET.matcher(line);
            if (m.find()) {
                double le = m.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1));
                buckets.merge(le, (long) Double.parseDouble(m.group(2)), Long::sum);
            }
        }
        return new LatencyBuckets(buckets);
    }

    LatencyBuckets minus(LatencyBuckets earlier) {
        TreeMap<Double, Long> delta = new TreeMap<>();
        cumulative.forEach((le, count) -> delta.put(le, count - earlier.cumulative.getOrDefault(le, 0L)));
        return new LatencyBuckets(delta);
    }

    long count() {
        return cumulative.isEmpty() ? 0 : cumulative.lastEntry().getValue();
    }

    /** The upper bound, in ms, of the bucket the percentile falls in; 0 without orders. */
    double percentileMillis(double percentile) {
        long total = count();
        if (total == 0) {
            return 0;
        }
        double wanted = Math.ceil(total * percentile / 100.0);
        for (Map.Entry<Double, Long> bucket : cumulative.entrySet()) {
            if (bucket.getValue() >= wanted) {
                return bucket.getKey() * 1000;
            }
        }
        return Double.POSITIVE_INFINITY;
    }
}
