package dev.lunchrush.scenarios.infra;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a Prometheus text exposition offers: the names of its samples (exactly the series names
 * Prometheus will store: {@code x_total}, {@code x_bucket}, {@code x_count}, ...) and the declared type
 * of each family.
 */
record Exposition(Set<String> samples, Map<String, String> types) {

    static Exposition empty() {
        return new Exposition(new TreeSet<>(), new TreeMap<>());
    }

    static Exposition parse(String text) {
        Exposition exposition = empty();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.startsWith("#")) {
                String[] words = trimmed.split("\\s+");
                if (words.length >= 4 && "TYPE".equals(words[1])) {
                    exposition.types().put(words[2], words[3]);
                }
                continue;
            }
            int end = 0;
            while (end < trimmed.length() && trimmed.charAt(end) != '{' && !Character.isWhitespace(trimmed.charAt(end))) {
                end++;
            }
            exposition.samples().add(trimmed.substring(0, end));
        }
        return exposition;
    }

    Exposition plus(Exposition other) {
        Exposition sum = empty();
        sum.samples().addAll(samples);
        sum.samples().addAll(other.samples());
        sum.types().putAll(types);
        sum.types().putAll(other.types());
        return sum;
    }

    boolean exports(String name) {
        return samples.contains(name);
    }

    /** Why a name a query uses is not among the samples, as precisely as the exposition tells. */
    String whyMissing(String name) {
        String base = name.replaceFirst("_(bucket|count|sum|total)$", "");
        if (name.endsWith("_bucket") && (exports(base + "_count") || exports(base + "_sum"))) {
            return base + " is exported as a summary or timer without buckets: publish it as a histogram "
                    + "(Timer/DistributionSummary .publishPercentileHistogram(), or "
                    + "management.metrics.distribution.percentiles-histogram." + base.replace('_', '.') + "=true)";
        }
        if (name.endsWith("_total") && exports(base)) {
            return base + " is exported as a gauge, not as a counter";
        }
        if (!name.endsWith("_total") && exports(name + "_total")) {
            return name + "_total is exported (a counter); the query must use that name";
        }
        if (types.containsKey(name) || types.containsKey(base)) {
            return "declared (# TYPE) but without any series yet: register it with its labels at startup";
        }
        return "nobody exports it";
    }
}
