package dev.lunchrush.lesson;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A rush's snapshots in time order, and the arithmetic of any figure read from them: its rate of change over a
 * window, its value at a moment between two snapshots, and when it first reaches a level. A figure is NaN where a
 * service did not answer; each method skips those snapshots rather than reading them as zero.
 */
final class Series {

    private final List<Snapshot> snapshots;

    Series(List<Snapshot> snapshots) {
        if (snapshots.isEmpty()) {
            throw new IllegalArgumentException("no snapshots");
        }
        this.snapshots = List.copyOf(snapshots);
    }

    List<Snapshot> snapshots() {
        return snapshots;
    }

    Snapshot first() {
        return snapshots.get(0);
    }

    Snapshot last() {
        return snapshots.get(snapshots.size() - 1);
    }

    /**
     * Δvalue ÷ Δt between the first and the last snapshot within [from, to] where the value is known
     * (a service that stopped answering limits the window to when it still did).
     */
    double slope(double from, double to, ToDoubleFunction<Snapshot> value) {
        Snapshot first = null;
        Snapshot last = null;
        for (Snapshot snapshot : snapshots) {
            double at = snapshot.elapsedSeconds();
            if (at < from - 1e-9 || at > to + 1e-9 || Double.isNaN(value.applyAsDouble(snapshot))) {
                continue;
            }
            if (first == null) {
                first = snapshot;
            }
            last = snapshot;
        }
        if (first == null || last == first) {
            return Double.NaN;
        }
        return (value.applyAsDouble(last) - value.applyAsDouble(first)) / (last.elapsedSeconds() - first.elapsedSeconds());
    }

    /** The value at time t, linear between the snapshots around it; NaN outside or where unknown. */
    double valueAt(double t, ToDoubleFunction<Snapshot> value) {
        Snapshot before = null;
        for (Snapshot snapshot : snapshots) {
            double at = snapshot.elapsedSeconds();
            if (at == t) {
                return value.applyAsDouble(snapshot);
            }
            if (at > t) {
                if (before == null) {
                    return value.applyAsDouble(snapshot);
                }
                double a = value.applyAsDouble(before);
                double b = value.applyAsDouble(snapshot);
                double fraction = (t - before.elapsedSeconds()) / (at - before.elapsedSeconds());
                return a + (b - a) * fraction;
            }
            before = snapshot;
        }
        return before == null ? Double.NaN : value.applyAsDouble(before);
    }

    /** The first time after {@code from} the value is at least the target, interpolated; NaN if it never is. */
    double firstTimeAtLeast(double from, ToDoubleFunction<Snapshot> value, double target) {
        return crossing(from, value, target, true);
    }

    /** The first time after {@code from} the value is at most the target, interpolated; NaN if it never is. */
    double firstTimeAtMost(double from, ToDoubleFunction<Snapshot> value, double target) {
        return crossing(from, value, target, false);
    }

    private double crossing(double from, ToDoubleFunction<Snapshot> value, double target, boolean upwards) {
        double previousTime = from;
        double previous = valueAt(from, value);
        if (!Double.isNaN(previous) && (upwards ? previous >= target : previous <= target)) {
            return from;
        }
        for (Snapshot snapshot : snapshots) {
            double at = snapshot.elapsedSeconds();
            if (at <= from) {
                continue;
            }
            double current = value.applyAsDouble(snapshot);
            if (!Double.isNaN(current) && (upwards ? current >= target : current <= target)) {
                if (Double.isNaN(previous) || current == previous) {
                    return at;
                }
                double fraction = (target - previous) / (current - previous);
                return previousTime + (at - previousTime) * Math.max(0, Math.min(1, fraction));
            }
            previousTime = at;
            previous = current;
        }
        return Double.NaN;
    }
}
