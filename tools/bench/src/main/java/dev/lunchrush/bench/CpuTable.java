package dev.lunchrush.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.bench.CpuFigures.GoalFigures;
import dev.lunchrush.bench.CpuFigures.MachineFigures;
import dev.lunchrush.bench.CpuFigures.ProcessFigures;
import dev.lunchrush.bench.CpuFigures.Window;
import dev.lunchrush.bench.ProducerPerfReference.ProducerPerfCpu;

/** How the CPU section reads: a window's lines as it ends, and the section's rows in the bench's table. */
final class CpuTable {

    private final List<String> kafkaBrokers;
    private final long hz;

    CpuTable(List<String> kafkaBrokers, long hz) {
        this.kafkaBrokers = kafkaBrokers;
        this.hz = hz;
    }

    /** A measured window's lines: the counts, then each process's CPU. */
    String text(Window window) {
        StringBuilder text = new StringBuilder();
        text.append(("cpu: %s at %,.0f/s: %,d %s in %.1f s after %.0f s of warm-up%s (from %s; the driver: %,d accepted, "
                + "%,d not), intake p50 %.1f / p99 %.1f ms").formatted(window.what(), window.ratePerSecond(), window.orders(),
                        window.what().startsWith("GET") ? "requests" : "orders", window.windowSeconds(), window.warmUpSeconds(),
                        window.rateHeld() ? "" : " (the rate was not held: the window was cut or answered under 95%)",
                        window.ordersFrom(), window.driverAccepted(), window.driverNotAccepted(), window.intake().p50Millis(),
                        window.intake().p99Millis()));
        if (window.readersReceived() != null) {
            text.append(", read meanwhile: ").append(window.readersReceived());
        }
        for (ProcessFigures process : window.processes()) {
            text.append('\n').append(process.msPerOrder() == null
                    ? "  %-20s %s".formatted(process.name(), process.note() == null ? "no figure" : process.note())
                    : "  %-20s pid %-8d %8s ticks %8.2f s CPU %8.3f ms each %4.0f%% of a core%s".formatted(process.name(),
                            process.pid(), process.ticks() == null ? "-" : "%,d".formatted(process.ticks()), process.cpuSeconds(),
                            process.msPerOrder(), 100 * nz(process.shareOfOneCore()), window.jitTicks().containsKey(process.name())
                                    ? "   of which the JIT %,d ticks".formatted(window.jitTicks().get(process.name())) : ""));
        }
        MachineFigures machine = window.machine();
        text.append('\n').append("  %-20s %19s ticks %8.2f s CPU %8.3f ms each %4.0f%% of all cores".formatted("the machine",
                "%,d".formatted(machine.busyTicks()), machine.cpuSeconds(), nz(machine.msPerOrder()), 100 * machine.shareOfAllCores()));
        return text.toString();
    }

    List<String[]> rows(List<Double> rates, Map<String, Window> windows, List<GoalFigures> goals, Window menu,
            ProducerPerfCpu producer) {
        List<String[]> rows = new ArrayList<>();
        String first = CpuFigures.key(rates.get(0));
        String second = CpuFigures.key(rates.get(1));
        Window main = windows.get(first);
        rows.add(new String[] {"CPU per order, log act (ms; %s/s | %s/s)".formatted(first, second), "", "", "", ""});
        rows.add(new String[] {"  orders in the measured windows", "%s | %s".formatted(held(main), held(windows.get(second))),
                "GET /menu: " + held(menu), "", ""});
        for (GoalFigures goal : goals) {
            String reference = "";
            String ratio = "";
            Double figure = goal.msPerOrder().get(first);
            Double menuFigure = CpuFigures.sum(menu, goal.members());
            if (goal.label().equals("all processes together") || goal.members().equals(List.of("order-service"))
                    || goal.members().equals(List.of(CpuFigures.DRIVER))) {
                reference = "GET /menu: %.3f ms/request".formatted(nz(menuFigure));
                ratio = ratioText(figure, menuFigure);
            }
            if (goal.members().size() == 1 && kafkaBrokers.contains(goal.members().get(0))) {
                Double perRecord = producer.brokerMsPerRecord().get(goal.members().get(0));
                reference = "during producer-perf-test: %.4f ms/record".formatted(nz(perRecord));
                ratio = ratioText(figure, perRecord);
            }
            rows.add(new String[] {"  " + goal.label(), "%s | %s".formatted(ms(figure), ms(goal.msPerOrder().get(second))),
                    reference, ratio, "≤ %.2f: %s".formatted(goal.limitMillis(), goal.verdict())});
        }
        rows.add(new String[] {"  report replayer", "%s | %s".formatted(ms(main.msPerOrder("report-replayer")),
                ms(windows.get(second).msPerOrder("report-replayer"))), "", "", ""});
        rows.add(new String[] {"  of all the above: the JVMs' JIT compilers", "%s | %s".formatted(ms(jitPerOrder(main)),
                ms(jitPerOrder(windows.get(second)))), "GET /menu: %s ms/request".formatted(ms(jitPerOrder(menu))), "",
                "(a cost of their start)"});
        rows.add(new String[] {"  kafka-producer-perf-test itself", "", "%.4f ms/record (%,d records, %,.0f/s)".formatted(
                nz(producer.toolMsPerRecord()), producer.records(), producer.recordsPerSecond()), "", ""});
        rows.add(new String[] {"  the machine (/proc/stat: all it runs)", "%s | %s".formatted(ms(main.machine().msPerOrder()),
                ms(windows.get(second).machine().msPerOrder())), "GET /menu: %.3f ms/request".formatted(nz(menu.machine().msPerOrder())),
                ratioText(main.machine().msPerOrder(), menu.machine().msPerOrder()), ""});
        rows.add(new String[] {"  intake p50 / p99 in the windows", "%.1f / %.1f ms | %.1f / %.1f ms".formatted(
                main.intake().p50Millis(), main.intake().p99Millis(), windows.get(second).intake().p50Millis(),
                windows.get(second).intake().p99Millis()), "GET /menu: %.1f / %.1f ms".formatted(menu.intake().p50Millis(),
                        menu.intake().p99Millis()), "", ""});
        windows.values().stream().flatMap(w -> w.processes().stream()).filter(p -> p.pid() == null && p.note() != null)
                .map(p -> p.name() + ": " + p.note()).distinct()
                .forEach(note -> rows.add(new String[] {"  (" + note + ")", "", "", "", ""}));
        return rows;
    }

    /** What the JIT compilers of every JVM (the driver's included) took in the window, per order. */
    @Nullable Double jitPerOrder(Window window) {
        long ticks = window.jitTicks().values().stream().mapToLong(Long::longValue).sum();
        return CpuFigures.perOrder(ticks / (double) hz, window.orders());
    }

    /** {@code 16,000 in 40 s}; {@code 2,908 in 14 s of 40 (not held)} when the stack did not keep up. */
    private static String held(Window window) {
        return "%,d in %.0f s%s".formatted(window.orders(), window.windowSeconds(), window.rateHeld() ? ""
                : " of %d (not held)".formatted(window.askedSeconds()));
    }

    static String brokerText(Map<String, @Nullable Double> brokers) {
        return brokers.values().stream().map(v -> "%.4f".formatted(nz(v))).reduce((a, b) -> a + ", " + b).orElse("?");
    }

    private static String ms(@Nullable Double value) {
        return value == null ? "—" : "%.3f".formatted(value);
    }

    private static String ratioText(@Nullable Double value, @Nullable Double reference) {
        return value == null || reference == null || reference <= 0 ? "" : "%.1f×".formatted(value / reference);
    }

    static double nz(@Nullable Double value) {
        return value == null ? 0 : value;
    }
}
