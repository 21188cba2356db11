package dev.lunchrush.testing;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

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
}
