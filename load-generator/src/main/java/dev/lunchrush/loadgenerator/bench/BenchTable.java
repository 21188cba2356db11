package dev.lunchrush.loadgenerator.bench;

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
}
