package dev.lunchrush.localstack;

import java.util.List;

/**
 * A line of the status table.
 *
 * @param healthy whether it answers its health check (or is deliberately absent: skipped)
 * @param problem what the user should know when it is not healthy: the log path and its last lines
 */
record Row(String name, String pid, String url, String state, boolean healthy, List<String> problem) {

    static Row ok(String name, String pid, String url, String state) {
        return new Row(name, pid, url, state, true, List.of());
    }

    static Row failed(String name, String pid, String url, String state, List<String> problem) {
        return new Row(name, pid, url, state, false, List.copyOf(problem));
    }
}
