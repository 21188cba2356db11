package dev.lunchrush.localstack;

import java.io.PrintWriter;
import java.util.List;

/** The table that {@code up} and {@code status} print, and the problems under it. */
final class StatusTable {

    private StatusTable() {
    }

    static void print(List<Row> rows, PrintWriter out) {
        String format = "%-21s %-8s %-28s %s%n";
        out.printf(format, "NAME", "PID", "URL", "STATE");
        for (Row row : rows) {
            out.printf(format, row.name(), row.pid(), row.url(), row.state());
        }
        for (Row row : rows) {
            if (!row.problem().isEmpty()) {
                out.println();
                out.println(row.name() + ": " + row.state());
                row.problem().forEach(line -> out.println("  " + line));
            }
        }
        out.flush();
    }
}
