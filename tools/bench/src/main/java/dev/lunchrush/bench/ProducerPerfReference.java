package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.bench.CpuFigures.ProcessFigures;
import dev.lunchrush.bench.StackProcesses.Target;

/**
 * The CPU section's reference for the brokers: what {@code kafka-producer-perf-test} costs itself and the Kafka
 * brokers per record, run as the intake section runs it.
 */
final class ProducerPerfReference {

    /** {@code kafka-producer-perf-test}'s own CPU per record, and the brokers' while it ran. */
    record ProducerPerfCpu(long records, double recordsPerSecond, double toolCpuSeconds, @Nullable Double toolMsPerRecord,
            String toolCpuFrom, Map<String, @Nullable Double> brokerMsPerRecord, Map<String, @Nullable Long> brokerTicks,
            double seconds) {
    }

    private final Path root;
    private final List<String> kafkaBrokers;
    private final String bootstrapServers;
    private final StackProcesses processes;
    private final long hz;
    private final PrintWriter out;

    ProducerPerfReference(Path root, List<String> kafkaBrokers, String bootstrapServers, StackProcesses processes, long hz,
            PrintWriter out) {
        this.root = root;
        this.kafkaBrokers = kafkaBrokers;
        this.bootstrapServers = bootstrapServers;
        this.processes = processes;
        this.hz = hz;
        this.out = out;
    }

    /**
     * Runs the tool as the intake section does (acks=all, idempotent, as fast as it goes). Its CPU is what this JVM's
     * children's ticks ({@code /proc/self/stat} fields 16 and 17, the CPU of the children it waited for) grew by
     * while it ran: the tool is the only child, and its JVM's start is in it.
     */
    ProducerPerfCpu run(long records, int recordSize) {
        say("cpu: kafka-producer-perf-test, %,d records of %d B, acks=all, idempotent…".formatted(records, recordSize));
        KafkaTools tools = new KafkaTools(root, bootstrapServers, out);
        List<Target> brokers = processes.targets().stream().filter(t -> kafkaBrokers.contains(t.name())).toList();
        Map<String, ProcStat.Process> brokersBefore = new LinkedHashMap<>();
        brokers.stream().filter(t -> t.pid() != null)
                .forEach(t -> ProcStat.read(t.pid()).ifPresent(reading -> brokersBefore.put(t.name(), reading)));
        ProcStat.Process selfBefore = ProcStat.self();
        long start = System.nanoTime();
        KafkaTools.ProducerFigures figures = tools.producerPerf("bench.cpu-producer-perf", records, recordSize);
        double seconds = (System.nanoTime() - start) / 1e9;
        ProcStat.Process selfAfter = ProcStat.self();
        Map<String, @Nullable Double> brokerMs = new LinkedHashMap<>();
        Map<String, @Nullable Long> brokerTicks = new LinkedHashMap<>();
        for (Target broker : brokers) {
            ProcessFigures f = CpuFigures.figures(broker.name(), broker.how(), brokersBefore.get(broker.name()),
                    broker.pid() == null ? null : ProcStat.read(broker.pid()).orElse(null), hz, figures.records(), seconds);
            brokerMs.put(broker.name(), f.msPerOrder());
            brokerTicks.put(broker.name(), f.ticks());
        }
        tools.deleteTopic("bench.cpu-producer-perf");
        double toolSeconds = (selfAfter.childTicks() - selfBefore.childTicks()) / (double) hz;
        ProducerPerfCpu result = new ProducerPerfCpu(figures.records(), figures.recordsPerSecond(), toolSeconds,
                CpuFigures.perOrder(toolSeconds, figures.records()), "this JVM's waited-for children's ticks (/proc/self/stat fields 16, 17), "
                        + "the tool's JVM start included", brokerMs, brokerTicks, seconds);
        say("cpu: producer-perf-test: %,d records at %,.0f/s; the tool %.4f ms/record, the broker %s ms/record".formatted(
                result.records(), result.recordsPerSecond(), CpuTable.nz(result.toolMsPerRecord()), CpuTable.brokerText(brokerMs)));
        return result;
    }

    private void say(String line) {
        out.println(line);
        out.flush();
    }
}
