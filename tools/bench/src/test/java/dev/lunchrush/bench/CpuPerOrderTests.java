package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The CPU section's arithmetic: ticks to ms per order on this process's own {@code /proc}, sums, goals, the counter. */
class CpuPerOrderTests {

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    @Test
    void ticksOfTheOwnProcessPerOrderAgreeWithTheJvmsOwnCpuTime() {
        ProcStat.Process before = ProcStat.self();
        long cpuBefore = OS.getProcessCpuTime();
        // work until the JVM itself says 400 ms of CPU went by (a condition on CPU spent, not on the clock)
        long sink = 0;
        while (OS.getProcessCpuTime() - cpuBefore < 400_000_000L) {
            for (int i = 0; i < 100_000; i++) {
                sink += Long.rotateLeft(sink ^ i, 7) * 31;
            }
        }
        ProcStat.Process after = ProcStat.self();
        double jvmMillis = (OS.getProcessCpuTime() - cpuBefore) / 1e6;
        assertThat(sink).isNotEqualTo(42);

        CpuFigures.ProcessFigures figures = CpuFigures.figures("test", "self", before, after, 100, 1000, 2.0);

        long ticks = after.ticks() - before.ticks();
        assertThat(figures.ticks()).isEqualTo(ticks);
        assertThat(figures.cpuSeconds()).isEqualTo(ticks / 100.0);
        assertThat(figures.msPerOrder()).isCloseTo(ticks * 1000 / 100.0 / 1000, within(1e-12));
        assertThat(figures.shareOfOneCore()).isCloseTo(ticks / 100.0 / 2.0, within(1e-12));
        // /proc counts in ticks of 10 ms, read a moment apart from the JVM's own counter
        assertThat(figures.cpuSeconds() * 1000).isCloseTo(jvmMillis, within(60.0));
        assertThat(figures.msPerOrder()).isCloseTo(jvmMillis / 1000, within(0.06));
        assertThat(figures.note()).isNull();
    }

    @Test
    void aProcessThatRestartedOrVanishedHasNoFigure() {
        ProcStat.Process before = ProcStat.parse("42 (java) S 1 1 1 0 -1 0 0 0 0 0 100 50 0 0 20 0 1 0 777 0 0");
        ProcStat.Process reborn = ProcStat.parse("42 (java) S 1 1 1 0 -1 0 0 0 0 0 10 5 0 0 20 0 1 0 999 0 0");

        assertThat(CpuFigures.figures("x", "", before, reborn, 100, 10, 1).msPerOrder()).isNull();
        assertThat(CpuFigures.figures("x", "", before, reborn, 100, 10, 1).note()).contains("restarted");
        assertThat(CpuFigures.figures("x", "", before, null, 100, 10, 1).msPerOrder()).isNull();
        assertThat(CpuFigures.perOrder(1.0, 0)).isNull();
        assertThat(CpuFigures.perOrder(4.0, 16_000)).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void goalsAddTheirMembersAndAreJudgedAtTheFirstRate() {
        CpuPerOrder section = new CpuPerOrder(Path.of("."), List.of("kafka"), "127.0.0.1:9092", null, null, null, false,
                new PrintWriter(new StringWriter()));
        Map<String, CpuFigures.Window> windows = new LinkedHashMap<>();
        windows.put("400", window(400, Map.of("order-service", 0.25, "kafka", 0.2, "backlog-monitor", 0.03, "kitchen-screen", 0.05,
                "analytics-dashboard", 0.05, "report-replayer", 0.01, "rabbitmq", 0.05, CpuFigures.DRIVER, 0.1)));
        windows.put("200", window(200, Map.of("order-service", 0.5, "kafka", 0.05, "backlog-monitor", 0.06, "kitchen-screen", 0.05,
                "analytics-dashboard", 0.05, "report-replayer", 0.02, "rabbitmq", 0.05, CpuFigures.DRIVER, 0.1)));

        Map<String, CpuFigures.GoalFigures> goals = new LinkedHashMap<>();
        CpuFigures.judge(section.goals(), windows, 400, false).forEach(goal -> goals.put(goal.label(), goal));

        assertThat(goals.get("all processes together").msPerOrder().get("400")).isCloseTo(0.74, within(1e-9));
        assertThat(goals.get("all processes together").msPerOrder().get("200")).isCloseTo(0.88, within(1e-9));
        assertThat(goals.get("all processes together").verdict()).isEqualTo("held");
        assertThat(goals.get("order service").verdict()).isEqualTo("held");      // 0.50 at 200/s is beside, not judged
        assertThat(goals.get("Kafka broker").verdict()).isEqualTo("missed");
        assertThat(goals.get("load generator (the driver)").verdict()).isEqualTo("held"); // 0.10 ≤ 0.10
        // Prometheus does not run: the monitor alone
        assertThat(goals.get("backlog monitor + Prometheus").msPerOrder().get("400")).isCloseTo(0.03, within(1e-9));
        assertThat(goals.get("backlog monitor + Prometheus").verdict()).isEqualTo("held");

        // RabbitMQ not found: its goal and the total are not measured, not held
        windows.put("400", window(400, Map.of("order-service", 0.25, "kafka", 0.05)));
        goals.clear();
        CpuFigures.judge(section.goals(), windows, 400, false).forEach(goal -> goals.put(goal.label(), goal));
        assertThat(goals.get("RabbitMQ").verdict()).isEqualTo("not measured");
        assertThat(goals.get("all processes together").verdict()).isEqualTo("not measured");
        assertThat(goals.get("order service").verdict()).isEqualTo("held");
    }

    @Test
    void ordersPlacedAreSummedOverTheCountersLabels() {
        String scrape = """
                # HELP orders_placed_total orders accepted
                # TYPE orders_placed_total counter
                orders_placed_total{act="log",application="order-service"} 31356.0
                orders_placed_total{act="shared-queue",application="order-service"} 12.0
                orders_placed_created{act="log"} 1.7E9
                orders_refused_total{act="log",application="order-service"} 5.0
                """;

        assertThat(CpuPerOrder.placedTotal(scrape)).isEqualTo(31368.0);
    }

    /** A window whose named processes cost the given ms per order; every other process of the stack not found. */
    private static CpuFigures.Window window(double rate, Map<String, Double> msPerOrder) {
        List<CpuFigures.ProcessFigures> processes = new ArrayList<>();
        for (String name : List.of("order-service", "kitchen-screen", "analytics-dashboard", "report-replayer", "backlog-monitor",
                "kafka", "rabbitmq", "prometheus", CpuFigures.DRIVER)) {
            Double ms = msPerOrder.get(name);
            processes.add(ms == null ? new CpuFigures.ProcessFigures(name, null, "", null, null, null, null, "not found")
                    : new CpuFigures.ProcessFigures(name, 1L, "test", 1L, ms, ms, 0.5, null));
        }
        RateSearch.Step step = new RateSearch.Step(rate, rate, 1000, 0, 0, 5, 20, 30, true);
        return new CpuFigures.Window(rate, "POST /orders", 20, 40, 40, true, 1000, "test", 1000, 0, null, step, processes,
                Map.of("order-service", 2L), new CpuFigures.MachineFigures(100, 800, 1, 1.0, 0.125));
    }
}
