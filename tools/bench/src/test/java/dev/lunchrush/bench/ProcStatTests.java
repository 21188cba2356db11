package dev.lunchrush.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code /proc} as the CPU section reads it: stat lines with awkward command names, the machine's line, listening sockets. */
class ProcStatTests {

    /** A real line of a JVM (fields 14-17: 1234 567 8 9; field 22: 4242). */
    private static final String JAVA = "6272 (java) S 1 6271 6271 0 -1 1077936384 94183 0 0 0 1234 567 8 9 20 0 "
            + "58 0 4242 3861528576 48797 18446744073709551615 1 1 0 0 0 0 0 4096 16796879 0 0 0 17 1 0 0 0 0 0";

    @Test
    void readsUtimeStimeAndStartTimeOfAPlainName() {
        ProcStat.Process process = ProcStat.parse(JAVA);

        assertThat(process.pid()).isEqualTo(6272);
        assertThat(process.comm()).isEqualTo("java");
        assertThat(process.utime()).isEqualTo(1234);
        assertThat(process.stime()).isEqualTo(567);
        assertThat(process.ticks()).isEqualTo(1801);
        assertThat(process.childTicks()).isEqualTo(17);
        assertThat(process.startTime()).isEqualTo(4242);
    }

    @Test
    void namesWithSpacesAndParenthesesDoNotShiftTheFields() {
        for (String comm : List.of("beam.smp", "Web Content", "a) S 1 2 (b", "((x))", ") ) )", " ", "")) {
            ProcStat.Process process = ProcStat.parse(JAVA.replace("(java)", "(" + comm + ")"));

            assertThat(process.comm()).isEqualTo(comm);
            assertThat(process.utime()).isEqualTo(1234);
            assertThat(process.stime()).isEqualTo(567);
            assertThat(process.startTime()).isEqualTo(4242);
        }
        assertThatThrownBy(() -> ProcStat.parse("6272 java S 1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcStat.parse("6272 (java) S 1 2 3")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void findsTheJitCompilerThreadsOfAJvmAndNoneOfAGoneProcess() throws Exception {
        assertThat(ProcStat.isCompilerThread("C2 CompilerThre")).isTrue();
        assertThat(ProcStat.isCompilerThread("C1 CompilerThre")).isTrue();
        assertThat(ProcStat.isCompilerThread("GC Thread#0")).isFalse();
        assertThat(ProcStat.isCompilerThread("java")).isFalse();
        long before = ProcStat.compilerTicks(ProcessHandle.current().pid());
        // this JVM compiles while the test suite runs; its compilers' ticks are part of its own and never fall
        assertThat(before).isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(ProcStat.self().ticks());
        assertThat(ProcStat.compilerTicks(ProcessHandle.current().pid())).isGreaterThanOrEqualTo(before);
        assertThat(ProcStat.compilerTicks(Long.MAX_VALUE)).isZero();
    }

    @Test
    void theOwnProcessReadsAsItselfAndItsTicksOnlyGrow() {
        ProcStat.Process first = ProcStat.self();
        ProcStat.Process again = ProcStat.read(ProcessHandle.current().pid()).orElseThrow();

        assertThat(first.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(first.comm()).isNotBlank();
        assertThat(again.startTime()).isEqualTo(first.startTime());
        assertThat(again.ticks()).isGreaterThanOrEqualTo(first.ticks());
        assertThat(ProcStat.read(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void theMachinesBusyTimeLeavesOutIdleIowaitAndSteal() {
        ProcStat.Machine machine = ProcStat.parseMachine("cpu  100 5 50 1000 40 3 2 7 11 0");

        assertThat(machine.busy()).isEqualTo(100 + 5 + 50 + 3 + 2);
        assertThat(machine.total()).isEqualTo(100 + 5 + 50 + 1000 + 40 + 3 + 2 + 7);
        ProcStat.Machine later = ProcStat.parseMachine("cpu  160 5 70 1100 40 4 3 7 11 0");
        assertThat(later.minus(machine).busy()).isEqualTo(60 + 20 + 1 + 1);
        assertThatThrownBy(() -> ProcStat.parseMachine("cpu0 1 2 3 4 5 6 7 8")).isInstanceOf(IllegalArgumentException.class);

        ProcStat.Machine real = ProcStat.machine();
        assertThat(real.total()).isGreaterThan(real.busy()).isPositive();
    }

    @Test
    void aListeningSocketIsFoundInTheTablesByItsPortInHex() {
        List<String> table = List.of(
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
                "   0: 0100007F:1628 00000000:0000 0A 00000000:00000000 00:00000000 00000000   107        0 24301 1 0000000000000000 100 0 0 10 0",
                "   1: 0100007F:1628 0100007F:C350 01 00000000:00000000 00:00000000 00000000   107        0 99999 1 0000000000000000 20 4 30 10 -1",
                "   2: 00000000:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 31337 1 0000000000000000 100 0 0 10 0");

        assertThat(ProcStat.listeningInodes(table, 5672)).containsExactly(24301L);   // 0x1628; the connection (01) is not listening
        assertThat(ProcStat.listeningInodes(table, 8080)).containsExactly(31337L);
        assertThat(ProcStat.listeningInodes(table, 9090)).isEmpty();
    }

    @Test
    void theOwnerOfARealListeningPortIsThisProcess() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThat(ProcStat.listeningPid(socket.getLocalPort())).hasValue(ProcessHandle.current().pid());
        }
    }

    @Test
    void clockTicksAreWhatGetconfSays() {
        assertThat(ProcStat.clockTicksPerSecond()).isEqualTo(100);
        assertThat(ManagementFactory.getOperatingSystemMXBean()).isInstanceOf(com.sun.management.OperatingSystemMXBean.class);
    }
}
