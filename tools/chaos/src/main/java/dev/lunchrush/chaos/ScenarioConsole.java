package dev.lunchrush.chaos;

import java.io.PrintWriter;

/** The suite's console: each line under its scenario's id, whole even when threads print at the same time. */
final class ScenarioConsole {

    private final PrintWriter out;

    ScenarioConsole(PrintWriter out) {
        this.out = out;
    }

    void say(Scenario scenario, String line) {
        synchronized (out) {
            out.printf("[%s] %s%n", scenario.id, line);
            out.flush();
        }
    }
}
