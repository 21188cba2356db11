package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;

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
    void compilersBusySinceTheLastQuestionAreNotSettledAndQuietOnesAre() {
        StringWriter text = new StringWriter();
        AtomicLong ticks = new AtomicLong(1_000);
        JitSettling settling = new JitSettling(ticks::get, 100, "test", new PrintWriter(text));

        // a whole core for the compilers since it was made: far above 2% whatever time has passed meanwhile
        ticks.addAndGet(100_000);
        assertThat(settling.settled()).isFalse();
        assertThat(text.toString()).contains("test: the JIT compilers at ").contains("warming up on");

        // not a tick more since the last question
        assertThat(settling.settled()).isTrue();
        assertThat(text.toString()).contains("at 0.0% of a core").contains("settled");
    }
}
