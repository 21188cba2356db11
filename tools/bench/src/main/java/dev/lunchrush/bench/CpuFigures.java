package dev.lunchrush.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The arithmetic of the CPU section: what a process, the driver and the machine cost per order over a window, and
 * the goals judged on those figures. No I/O: {@link CpuPerOrder} measures, {@link CpuTable} prints.
 */
final class CpuFigures {

    /** The name the driver (this JVM) goes by among the processes. */
    static final String DRIVER = "load-generator";

    private CpuFigures() {
    }

    /** A goal of the issue: the processes' CPU per order together at most {@code limitMillis}, judged at the first rate. */
    record Goal(String label, double limitMillis, List<String> members) {
    }

    /** One process's CPU over a window; the figures are null when it was not found or did not live through it. */
    record ProcessFigures(String name, @Nullable Long pid, String foundBy, @Nullable Long ticks, @Nullable Double cpuSeconds,
            @Nullable Double msPerOrder, @Nullable Double shareOfOneCore, @Nullable String note) {
    }

    /** {@code /proc/stat}'s busy ticks over a window, every core. */
    record MachineFigures(long busyTicks, long allTicks, double cpuSeconds, @Nullable Double msPerOrder, double shareOfAllCores) {
    }

    /** A goal's figure at each rate (null where a member was not measured) and whether the first rate's holds. */
    record GoalFigures(String label, double limitMillis, List<String> members, Map<String, @Nullable Double> msPerOrder,
            String verdict) {
    }

    /**
     * Everything one measured window saw. {@code rateHeld}: at least 95% of the asked rate answered over the asked
     * window; a stack that cannot keep up has its window cut once the driver is 5 s behind (as the search's steps), and
     * its figures are then per order of what it did answer. {@code warmUpSeconds}: how long the warm-up before it took
     * (until the JVMs' compilers had settled, {@link JitSettling}); {@code jitTicks}: what each JVM's compiler threads
     * took within the window, a part of its ticks.
     */
    record Window(double ratePerSecond, String what, double warmUpSeconds, long askedSeconds, double windowSeconds,
            boolean rateHeld, long orders, String ordersFrom,
            long driverAccepted, long driverNotAccepted, @Nullable Map<String, Long> readersReceived, RateSearch.Step intake,
            List<ProcessFigures> processes, Map<String, Long> jitTicks, MachineFigures machine) {

        @Nullable Double msPerOrder(String name) {
            return processes.stream().filter(p -> p.name().equals(name)).findFirst().map(ProcessFigures::msPerOrder).orElse(null);
        }
    }

    /** The process's CPU between two readings of it; no figures when it was missing at either or restarted between. */
    static ProcessFigures figures(String name, String foundBy, ProcStat.@Nullable Process before, ProcStat.@Nullable Process after,
            long hz, long orders, double seconds) {
        if (before == null || after == null) {
            return new ProcessFigures(name, before != null ? before.pid() : after != null ? after.pid() : null, foundBy, null, null,
                    null, null, "no /proc reading " + (before == null ? "at the start of the window" : "at its end (gone?)"));
        }
        if (before.pid() != after.pid() || before.startTime() != after.startTime()) {
            return new ProcessFigures(name, after.pid(), foundBy, null, null, null, null, "restarted during the window");
        }
        long ticks = after.ticks() - before.ticks();
        double cpuSeconds = ticks / (double) hz;
        return new ProcessFigures(name, after.pid(), foundBy, ticks, cpuSeconds, perOrder(cpuSeconds, orders),
                seconds <= 0 ? null : cpuSeconds / seconds, null);
    }

    static ProcessFigures driverFigures(long cpuNanos, long orders, double seconds) {
        double cpuSeconds = cpuNanos / 1e9;
        return new ProcessFigures(DRIVER, ProcessHandle.current().pid(), "this JVM (getProcessCpuTime)", null, cpuSeconds,
                perOrder(cpuSeconds, orders), seconds <= 0 ? null : cpuSeconds / seconds, null);
    }

    /** Milliseconds of CPU per order; null without orders. */
    static @Nullable Double perOrder(double cpuSeconds, long orders) {
        return orders <= 0 ? null : cpuSeconds * 1000 / orders;
    }

    /** Each goal's sum at every rate; the verdict is the first rate's (null members: not measured, no verdict). */
    static List<GoalFigures> judge(List<Goal> goals, Map<String, Window> windows, double judgedRate, boolean smoke) {
        List<GoalFigures> judged = new ArrayList<>();
        for (Goal goal : goals) {
            Map<String, @Nullable Double> sums = new LinkedHashMap<>();
            for (Map.Entry<String, Window> window : windows.entrySet()) {
                sums.put(window.getKey(), sum(window.getValue(), goal.members()));
            }
            Double judgedSum = sums.get(key(judgedRate));
            String verdict = smoke ? "not judged (smoke)" : judgedSum == null ? "not measured"
                    : judgedSum <= goal.limitMillis() ? "held" : "missed";
            judged.add(new GoalFigures(goal.label(), goal.limitMillis(), goal.members(), sums, verdict));
        }
        return judged;
    }

    /**
     * The members' CPU per order added up; Prometheus counts as nothing when it does not run (it is optional), any
     * other member missing makes the sum unknown.
     */
    static @Nullable Double sum(Window window, List<String> members) {
        double sum = 0;
        for (String member : members) {
            Optional<ProcessFigures> figures = window.processes().stream().filter(p -> p.name().equals(member)).findFirst();
            if (figures.isEmpty()) {
                continue;
            }
            Double value = figures.get().msPerOrder();
            if (value == null) {
                if (member.equals("prometheus") && figures.get().pid() == null) {
                    continue;
                }
                return null;
            }
            sum += value;
        }
        return sum;
    }

    static String key(double rate) {
        return String.valueOf(Math.round(rate));
    }
}
