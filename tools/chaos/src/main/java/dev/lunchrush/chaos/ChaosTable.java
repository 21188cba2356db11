package dev.lunchrush.chaos;

import java.io.PrintWriter;
import java.util.List;

/** The suite's table: one line per scenario, then what happened in each and why any failed. */
final class ChaosTable {

    private ChaosTable() {
    }

    static void print(List<Result> results, PrintWriter out) {
        String format = "%-30s %-13s %7s %7s %8s %9s %5s %4s %5s %8s %8s  %s%n";
        out.printf(format, "SCENARIO", "ACT", "201", "IN LOG", "KITCHEN", "DASHBOARD", "LOST", "DUP", "503", "UNKNOWN",
                "SLOWEST", "VERDICT");
        for (Result result : results) {
            out.printf(format, result.scenario(), result.act(), result.acknowledged(),
                    result.inLog() < 0 ? "-" : String.valueOf(result.inLog()), orDash(result.kitchen()), orDash(result.dashboard()),
                    result.lost(), result.duplicated(), result.refused(), result.unknown(),
                    String.format("%.1f s", result.slowestMillis() / 1000.0), result.verdict());
        }
        out.println();
        out.println("201: acknowledged · IN LOG: of those, found in the log · KITCHEN, DASHBOARD: orders each reader counted "
                + "from the scenario's source · LOST: acknowledged but in no reader (or not in the log) · DUP: in the log twice "
                + "or counted twice (for queue acts a lower bound of redeliveries) · 503: refused · UNKNOWN: no answer, may or "
                + "may not have been written · SLOWEST: the longest answer");
        for (Result result : results) {
            if (result.notes().isEmpty() && result.failures().isEmpty()) {
                continue;
            }
            out.println();
            out.println(result.scenario() + ":");
            result.notes().forEach(note -> out.println("  " + note));
            result.failures().forEach(failure -> out.println("  FAIL: " + failure));
        }
        out.flush();
    }

    /** A figure, or "-" where the scenario does not count it. */
    private static String orDash(long figure) {
        return figure < 0 ? "-" : String.valueOf(figure);
    }
}
