package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up's question: have the JVMs' compilers quieted down? */
class JitSettlingTests {

    @Test
    void theShareIsTheCompilersTicksOverTheSecondsOfOneCore() {
        assertThat(JitSettling.share(20, 100, 10)).isEqualTo(0.02);
        assertThat(JitSettling.share(150, 100, 10)).isEqualTo(0.15);
        assertThat(JitSettling.share(5, 100, 0)).isZero();
    }

    @Test
    void aJvmThatCompilesFlatOutIsNotSettledAndSaysSo() {
        StringWriter text = new StringWriter();
        JitSettling settling = new JitSettling(List.of(), ProcStat.clockTicksPerSecond(), "test", new PrintWriter(text));
        // a burst of new code in this JVM: the compilers are busy while it is made hot
        long deadline = System.nanoTime() + 2_000_000_000L;
        long sink = 0;
        int round = 0;
        while (System.nanoTime() < deadline) {
            sink += Generated.run(round++);
        }
        boolean settled = settling.settled();

        assertThat(sink).isNotZero();
        assertThat(text.toString()).contains("test: the JIT compilers at ").contains("of a core over the last 2 s");
        // whether this JVM's compilers stayed under 2% here depends on the machine; the verdict must match the share
        assertThat(text.toString()).contains(settled ? "settled" : "warming up on");
    }

    /** Some code for the compilers. */
    private static final class Generated {

        static long run(int round) {
            long value = round;
            for (int i = 0; i < 1_000; i++) {
                value = value * 31 + Long.toString(value ^ i).hashCode();
            }
            return value | 1;
        }
    }
}
