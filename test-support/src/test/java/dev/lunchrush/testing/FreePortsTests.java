package dev.lunchrush.testing;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FreePortsTests {

    @Test
    void handsOutDistinctBindablePortsBelowTheEphemeralRange() throws Exception {
        int ephemeralLow = FreePorts.ephemeralLow();
        assertThat(ephemeralLow).as("the ephemeral range's lower bound").isGreaterThanOrEqualTo(2048);
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            int port = FreePorts.next();
            assertThat(port).isBetween(1024, ephemeralLow - 1);
            assertThat(ports.add(port)).as("port %d handed out twice", port).isTrue();
        }
        for (int port : ports.stream().limit(10).toList()) {
            try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(server.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void choosesTheTwelveThousandPortsBelowTheEphemeralRange() {
        assertThat(FreePorts.range(32768)).containsExactly(20768, 32768);
        assertThat(FreePorts.range(49152)).containsExactly(37152, 49152);
        // a range that starts low still leaves the privileged ports alone
        assertThat(FreePorts.range(10000)).containsExactly(1024, 10000);
        assertThat(FreePorts.range(1024)).containsExactly(1024, 2048);
    }

    @Test
    void anotherJvmNeverGetsAPortThisOneHolds() throws Exception {
        Set<Integer> mine = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            mine.add(FreePorts.next());
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                Claimer.class.getName(), "400").redirectErrorStream(true).start();
        // 400 short lines fit the pipe's buffer: the child ends without being read, and a hung child fails the wait
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.exitValue()).as(output).isZero();
        Set<Integer> theirs = new HashSet<>();
        output.lines().map(String::trim).filter(line -> !line.isEmpty()).map(Integer::valueOf).forEach(theirs::add);
        // two random draws of 400 among 12,000 ports would share about 13
        assertThat(theirs).hasSize(400).doesNotContainAnyElementsOf(mine);
    }

    /** Claims the given number of ports in a JVM of its own and prints them. */
    static final class Claimer {

        public static void main(String[] args) {
            for (int i = 0; i < Integer.parseInt(args[0]); i++) {
                System.out.println(FreePorts.next());
            }
        }
    }
}
