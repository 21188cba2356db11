package dev.lunchrush.bench;

import java.util.List;
import java.util.Map;

/**
 * What a section hands back: its figures, under {@code key} in the JSON, and its rows of the table.
 *
 * @param key the section's key in {@code bench/latest.json}
 * @param figures the section's part of the JSON, in the order it is written
 * @param rows the section's rows of {@link BenchTable}
 */
record Part(String key, Map<String, Object> figures, List<String[]> rows) {
}
