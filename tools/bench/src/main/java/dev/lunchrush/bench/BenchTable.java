package dev.lunchrush.bench;

import java.util.ArrayList;
import java.util.List;

/** The benchmark table: what was measured, Lunch Rush's figure, the reference, their ratio, the goal. */
final class BenchTable {

    private static final String[] HEADER = {"BENCHMARK", "LUNCH RUSH", "REFERENCE (same run)", "RATIO", "GOAL"};

    private BenchTable() {
    }

    static String format(List<String[]> rows) {
        List<String[]> all = new ArrayList<>();
        all.add(HEADER);
        all.addAll(rows);
        int[] widths = new int[HEADER.length];
        for (String[] row : all) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(String.format("%-" + (widths[i] + 2) + "s", row[i]));
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }

    /** Lunch Rush's figure over the reference's; 0 without a reference. */
    static double ratio(double value, double reference) {
        return reference <= 0 ? 0 : value / reference;
    }

    /** A ratio's cell: two decimals, three below 0.1. */
    static String ratioCell(double ratio) {
        return String.format(ratio < 0.1 ? "%.3f" : "%.2f", ratio);
    }

    /** A rate search's cell: its best step's rate and latencies, or that none held. */
    static String rateCell(RateSearch.Outcome outcome) {
        RateSearch.Step best = outcome.best();
        return best == null ? "no step held" : "%,.0f/s, p50 %.1f / p99 %.1f / p99.9 %.1f ms".formatted(best.targetPerSecond(),
                best.p50Millis(), best.p99Millis(), best.p999Millis());
    }
}
