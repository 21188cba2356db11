package dev.lunchrush.orderservice.publishing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.TestBrokers;

/**
 * A RabbitMQ memory alarm for one connection alone. RabbitMQ raises an alarm by telling each connection's reader
 * process to conserve resources ({@code rabbit_reader:conserve_resources/3}, which the broker's alarm handler calls
 * for every connection); this asks the machine's broker, through {@code rabbitmqctl eval}, to tell only the
 * connection whose client port is given. That connection then behaves as under a real memory alarm: blocked at its
 * next publish, told {@code connection.blocked}, its frames left unread until the alarm is lowered, then told
 * {@code connection.unblocked}. Unlike {@code rabbitmqctl set_vm_memory_high_watermark}, the broker's other users
 * (other tests, the stack of {@code ./demo up}) never notice. Lowered by {@link #close()}; a connection that closes
 * takes its alarm with it.
 */
final class ConnectionAlarm implements AutoCloseable {

    private final int clientPort;

    private ConnectionAlarm(int clientPort) {
        this.clientPort = clientPort;
    }

    /** Raises the alarm for the connection from 127.0.0.1:{@code clientPort} (a Spring {@code Connection}'s local port). */
    static ConnectionAlarm raise(int clientPort) {
        RabbitBroker broker = TestBrokers.rabbit();
        if (!"127.0.0.1".equals(broker.host()) && !"localhost".equals(broker.host())) {
            throw new IllegalStateException("this test raises a RabbitMQ alarm for one connection through rabbitmqctl, so it "
                    + "needs the machine's own broker (127.0.0.1:5672, as without LUNCHRUSH_TEST_RABBITMQ_URI and Docker); "
                    + "the tests use " + broker.host() + ":" + broker.port());
        }
        ConnectionAlarm alarm = new ConnectionAlarm(clientPort);
        alarm.conserve(true);
        return alarm;
    }

    @Override
    public void close() {
        conserve(false);
    }

    private void conserve(boolean conserve) {
        // the reader of the one connection from this client port; each is told as the broker's alarm tells them all
        String expression = "[rabbit_reader:conserve_resources(P, memory, {[], " + conserve + ", []}) "
                + "|| P <- rabbit_networking:connections(), rabbit_reader:info(P, [peer_port]) =:= [{peer_port, "
                + clientPort + "}]].";
        String output = rabbitmqctl("eval", expression).strip();
        if (!"[ok]".equals(output)) {
            throw new IllegalStateException("RabbitMQ has no single connection from client port " + clientPort
                    + " to " + (conserve ? "raise" : "lower") + " an alarm for: rabbitmqctl eval answered " + output);
        }
    }

    private static String rabbitmqctl(String... arguments) {
        // on the PATH, or where Debian's package puts it (/usr/sbin is not on every user's PATH)
        Path command = Stream.concat(Stream.of(System.getenv().getOrDefault("PATH", "").split(":")), Stream.of("/usr/sbin"))
                .filter(folder -> !folder.isEmpty())
                .map(folder -> Path.of(folder, "rabbitmqctl"))
                .filter(Files::isExecutable)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("rabbitmqctl is not installed (apt-get install rabbitmq-server): "
                        + "this test needs it to raise an alarm"));
        List<String> commandLine = new ArrayList<>(List.of(command.toString()));
        commandLine.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(commandLine).redirectErrorStream(true).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("rabbitmqctl did not finish within 30 s");
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException("rabbitmqctl failed (exit " + process.exitValue() + "): " + output);
            }
            return output;
        }
        catch (IOException ex) {
            throw new IllegalStateException("cannot run rabbitmqctl: " + ex.getMessage(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
