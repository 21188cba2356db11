package dev.lunchrush.support.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The limits of {@code lunchrush-server-limits.properties} on a real server of each kind, with the timeouts
 * shortened: a body promised and not sent is answered 408 or cut off, a body trickled is cut off at the request
 * timeout, an idle connection is closed, connections beyond the bound are closed at once, and Tomcat closes at once,
 * saying so, a connection whose body nobody read.
 * <p>
 * The tests of a kind share one server, started when the first of them needs it and closed after the last: each test
 * uses connections of its own and none changes the server. The bound on connections has a server of its own, whose
 * connections do not idle out while it is tested and which no other test's connections count against.
 */
class ServerLimitsTests {

    /** Spring Security's auto-configurations, which these servers without a security chain do without. */
    static final String WITHOUT_SECURITY = "--spring.autoconfigure.exclude="
            + "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration,"
            + "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration";

    /**
     * A closing context lets go of Reactor Netty's event loops at once, without the quiet period in which they wait
     * for new tasks: a test's server, closed, gets none.
     */
    static final String NO_QUIET_PERIOD = "--spring.reactor.netty.shutdown-quiet-period=0s";

    /** Netty's request timeout and header timeout (its idle timeout) here. */
    private static final Duration NETTY_TIMEOUT = Duration.ofSeconds(1);

    /** As arguments: they come before the limits' file, which comes before default properties. */
    private static final String[] SHORT = {"--server.address=127.0.0.1", "--server.port=0",
        "--lunchrush.server.request-timeout=" + NETTY_TIMEOUT.toMillis() + "ms",
        "--lunchrush.server.header-timeout=" + NETTY_TIMEOUT.toMillis() + "ms",
        "--server.tomcat.connection-timeout=1s", "--server.tomcat.keep-alive-timeout=2s",
        "--lunchrush.server.max-connections=20", WITHOUT_SECURITY, NO_QUIET_PERIOD,
        "--management.endpoints.web.exposure.include=health"};

    /** The servers started, by kind, each closed after the class's last test. */
    private static final Map<Server, ConfigurableApplicationContext> servers = new EnumMap<>(Server.class);

    private enum Server {

        NETTY(ReactiveApp.class, WebApplicationType.REACTIVE),
        /**
         * The held connections must not idle out while the others are opened, however slow the machine: the bound
         * is what is tested, not the idle timeout.
         */
        NETTY_BOUND(ReactiveApp.class, WebApplicationType.REACTIVE, "--lunchrush.server.header-timeout=60s"),
        TOMCAT(ServletApp.class, WebApplicationType.SERVLET);

        final Class<?> app;
        final WebApplicationType type;
        final String[] instead;

        Server(Class<?> app, WebApplicationType type, String... instead) {
            this.app = app;
            this.type = type;
            this.instead = instead;
        }
    }

    @AfterAll
    static void stop() {
        servers.values().forEach(ConfigurableApplicationContext::close);
        servers.clear();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ReactiveApp {

        @Bean
        RouterFunction<ServerResponse> echo() {
            return RouterFunctions.route().POST("/echo", request -> request.bodyToMono(String.class)
                    .flatMap(body -> ServerResponse.ok().bodyValue(body))).build();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ServletApp {

        @Bean
        org.springframework.web.servlet.function.RouterFunction<org.springframework.web.servlet.function.ServerResponse> echo() {
            return org.springframework.web.servlet.function.RouterFunctions.route()
                    .POST("/echo", request -> org.springframework.web.servlet.function.ServerResponse.ok()
                            .body(request.body(String.class)))
                    .build();
        }
    }

    /** The port of the server, started (at its first use) with {@link #SHORT}'s arguments and its own instead. */
    private static int port(Server server) {
        ConfigurableApplicationContext context = servers.computeIfAbsent(server, ServerLimitsTests::start);
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    /** The server's app with {@link #SHORT}'s arguments, each of its {@code instead} in place of SHORT's of that name. */
    private static ConfigurableApplicationContext start(Server server) {
        Set<String> replaced = Arrays.stream(server.instead).map(arg -> arg.substring(0, arg.indexOf('=')))
                .collect(Collectors.toSet());
        String[] args = Stream.concat(Arrays.stream(SHORT)
                .filter(arg -> !arg.contains("=") || !replaced.contains(arg.substring(0, arg.indexOf('=')))),
                Arrays.stream(server.instead)).toArray(String[]::new);
        return new SpringApplicationBuilder(server.app).web(server.type).run(args);
    }

    @Test
    void nettyAnswers408ToABodyPromisedAndNotSent() throws IOException {
        int port = port(Server.NETTY);
        assertThatItLetGoAtTheNettyTimeout(secondsUntilTheServerLetsGo(port, promised(), 0));
    }

    @Test
    void nettyCutsOffABodyTrickledPastTheRequestTimeout() throws IOException {
        int port = port(Server.NETTY);
        // a byte every quarter of the timeout: bytes keep coming, and only the whole request's timeout ends it
        assertThatItLetGoAtTheNettyTimeout(secondsUntilTheServerLetsGo(port, promised(), NETTY_TIMEOUT.toMillis() / 4));
    }

    @Test
    void nettyClosesAConnectionThatSendsNothing() throws IOException {
        int port = port(Server.NETTY);
        assertThatItLetGoAtTheNettyTimeout(secondsUntilTheServerLetsGo(port, new byte[0], 0));
    }

    @Test
    void nettyClosesConnectionsBeyondTheBound() throws IOException {
        int port = port(Server.NETTY_BOUND);
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 20; i++) {
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
                held.add(socket);
                // answered, so the server has accepted and counted it (a connect alone may wait in its backlog); the
                // wait is generous: on a loaded machine an answer is late, and lateness is not what is tested here
                socket.setSoTimeout(30_000);
                socket.getOutputStream().write("GET /actuator/health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThat(new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII)).endsWith("200");
            }
            assertThat(status(port, "GET /actuator/health HTTP/1.1\r\nHost: x\r\n\r\n")).isEqualTo(-1);
        }
        finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        // the server counts a connection out when it has seen it closed, an event-loop task after the client's close
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> status(port, "GET /actuator/health HTTP/1.1\r\nHost: x\r\n\r\n") == 200);
    }

    @Test
    void tomcatLetsGoOfABodyPromisedAndNotSent() throws IOException {
        int port = port(Server.TOMCAT);
        assertThat(secondsUntilTheServerLetsGo(port, promised(), 0)).isBetween(0.5, 4.0);
    }

    @Test
    void tomcatClosesAConnectionThatSendsNothing() throws IOException {
        int port = port(Server.TOMCAT);
        assertThat(secondsUntilTheServerLetsGo(port, new byte[0], 0)).isBetween(0.5, 4.0);
    }

    @Test
    void tomcatClosesAtOnceAConnectionWhoseBodyNobodyReadAndSaysSo() throws IOException {
        int port = port(Server.TOMCAT);
        assertThat(status(port, "GET /actuator/health HTTP/1.1\r\nHost: x\r\n\r\n")).isEqualTo(200);
        // the 404's path taken once before it is timed: its first answer loads its classes
        assertThat(status(port, "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")).isEqualTo(404);
        long start = System.nanoTime();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 65536\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 404");
            // a client must not reuse a connection that is about to close: the answer says it
            assertThat(answer.substring(0, answer.indexOf("\r\n\r\n")).toLowerCase()).contains("connection: close");
        }
        // without UnreadBodyValve Tomcat would wait for the promised bytes, in a worker, until the connection timeout (1 s)
        assertThat((System.nanoTime() - start) / 1e9).as("seconds until the answer and the close").isLessThan(0.5);
    }

    @Test
    void tomcatKeepsAConnectionWhoseBodyWasRead() throws IOException {
        int port = port(Server.TOMCAT);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            String echo = "POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello";
            for (int i = 0; i < 2; i++) {
                socket.getOutputStream().write(echo.getBytes(StandardCharsets.US_ASCII));
                String head = readHead(socket.getInputStream());
                assertThat(head).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("connection: close");
                socket.getInputStream().readNBytes(5);
            }
        }
    }

    /** Not much before the timeout, and within 2 s after it, which a busy machine may take to get to it. */
    private static void assertThatItLetGoAtTheNettyTimeout(double seconds) {
        double timeout = NETTY_TIMEOUT.toMillis() / 1e3;
        assertThat(seconds).as("seconds until Netty let go, its timeout %s s", timeout)
                .isBetween(0.75 * timeout, timeout + 2);
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int read = in.read();
            if (read < 0) {
                break;
            }
            head.append((char) read);
        }
        return head.toString();
    }

    private static byte[] promised() {
        return ("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 65536\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Sends {@code head}, then (with {@code trickleMillis} over 0) one body byte that often; the seconds until the
     * server answered (a 408) or closed the connection. Fails after 20 s.
     */
    private static double secondsUntilTheServerLetsGo(int port, byte[] head, long trickleMillis) throws IOException {
        long start = System.nanoTime();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write(head);
            out.flush();
            socket.setSoTimeout(trickleMillis > 0 ? (int) trickleMillis : 20_000);
            while (System.nanoTime() - start < 20_000_000_000L) {
                try {
                    int read = in.read();
                    if (read == -1 || read == 'H') {
                        break;
                    }
                }
                catch (SocketTimeoutException ex) {
                    try {
                        out.write('x');
                        out.flush();
                    }
                    catch (IOException closed) {
                        break;
                    }
                }
                catch (IOException reset) {
                    break;
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(seconds).as("the server let go within 20 s").isLessThan(20);
        return seconds;
    }

    /** The status of one request on a fresh connection, -1 when the connection is closed without an answer. */
    private static int status(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            byte[] line = new byte[12];
            int read = socket.getInputStream().readNBytes(line, 0, 12);
            return read < 12 ? -1 : Integer.parseInt(new String(line, 9, 3, StandardCharsets.US_ASCII));
        }
        catch (IOException reset) {
            return -1;
        }
    }
}
