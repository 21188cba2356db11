package dev.lunchrush.support.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Trickled request headers (a slowloris) on a real server of each kind: {@value #TRICKLED} connections (opened over
 * 4 s) each send a request line, then one header byte every half second, more often than Tomcat's connection timeout
 * (5 s here), and never end their headers. The server closes each at the header deadline
 * ({@code lunchrush.server.header-timeout}, 4 s here), answers its health within a second meanwhile, and still serves a
 * slow client whose headers came within the deadline, though its body then comes a byte every 3 s, past the deadline:
 * the deadline is the headers', and the time between two bytes of a body is the connection timeout again.
 */
class HeaderDeadlineTests {

    private static final int TRICKLED = 1_000;
    private static final Duration DEADLINE = Duration.ofSeconds(4);
    private static final Duration BYTE_EVERY = Duration.ofMillis(500);

    private static final String[] ARGS = {"--server.address=127.0.0.1", "--server.port=0",
        "--lunchrush.server.header-timeout=" + DEADLINE.toSeconds() + "s", "--server.tomcat.connection-timeout=5s",
        ServerLimitsTests.WITHOUT_SECURITY, ServerLimitsTests.NO_QUIET_PERIOD,
        "--management.endpoints.web.exposure.include=health"};

    private ConfigurableApplicationContext context;
    private final ScheduledExecutorService clock = Executors.newScheduledThreadPool(4);

    @AfterEach
    void stop() {
        clock.shutdownNow();
        if (context != null) {
            context.close();
        }
    }

    @Test
    void nettyClosesTrickledHeadersAtTheDeadline() throws Exception {
        closesTrickledHeadersAtTheDeadline(ServerLimitsTests.ReactiveApp.class, WebApplicationType.REACTIVE);
    }

    @Test
    void tomcatClosesTrickledHeadersAtTheDeadline() throws Exception {
        closesTrickledHeadersAtTheDeadline(ServerLimitsTests.ServletApp.class, WebApplicationType.SERVLET);
    }

    private void closesTrickledHeadersAtTheDeadline(Class<?> app, WebApplicationType type) throws Exception {
        context = new SpringApplicationBuilder(app).web(type).run(ARGS);
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        // the first answers of a JVM come slowly while it compiles their path, whatever else happens
        await().atMost(Duration.ofSeconds(30)).until(() -> healthMillis(port) < 200);
        try (TrickledHeaders trickled = new TrickledHeaders()) {
            clock.scheduleAtFixedRate(trickled::trickle, BYTE_EVERY.toMillis(), BYTE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            CompletableFuture<String> inTime = echoedSlowly(port);
            // opened over 4 s, 25 every 100 ms, as an attack's connections come, not in one burst
            clock.scheduleAtFixedRate(() -> trickled.open(port, 25, TRICKLED), 0, 100, TimeUnit.MILLISECONDS);
            AtomicLong slowestHealthMillis = new AtomicLong();
            ScheduledFuture<?> probing = clock.scheduleWithFixedDelay(
                    () -> slowestHealthMillis.accumulateAndGet(healthMillis(port), Math::max), 0, 200, TimeUnit.MILLISECONDS);

            await().atMost(DEADLINE.plusSeconds(15)).untilAsserted(() -> {
                assertThat(trickled.opened()).as("trickled connections opened").isEqualTo(TRICKLED);
                assertThat(trickled.stillOpen()).as("trickled connections open").isZero();
            });
            probing.cancel(false);

            double deadline = DEADLINE.toSeconds();
            // not before the deadline (a byte came every half second); after it, as soon as a busy machine gets to it
            assertThat(trickled.secondsHeld()).as("seconds until the server closed each trickled connection")
                    .allSatisfy(seconds -> assertThat(seconds).isBetween(deadline - 0.1, deadline + 5));
            assertThat(slowestHealthMillis.get()).as("the slowest health answer meanwhile, ms").isLessThan(1_000);
            assertThat(inTime.get(30, TimeUnit.SECONDS)).as("a client whose headers came in time")
                    .startsWith("HTTP/1.1 200").endsWith("\r\n\r\nAB");
        }
    }

    /**
     * {@code POST /echo} with its headers in six parts over 2.5 s (within the deadline; the last but one at 2 s, when
     * 2 s of the deadline are left), then its two body bytes 3 s apart: the whole answer, once the server closed.
     */
    private CompletableFuture<String> echoedSlowly(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(30_000);
        String[] parts = {"POST /echo HTTP/1.1\r\n", "Host: 127.0.0.1\r\n", "Content-Type: text/plain\r\n",
            "Content-Length: 2\r\n", "Connection: close\r\n", "\r\n", "A", "B"};
        long[] atMillis = {0, 500, 1_000, 1_500, 2_000, 2_500, 5_500, 8_500};
        CompletableFuture<Void> sent = CompletableFuture.completedFuture(null);
        for (int i = 0; i < parts.length; i++) {
            byte[] part = parts[i].getBytes(StandardCharsets.US_ASCII);
            long delay = i == 0 ? 0 : atMillis[i] - atMillis[i - 1];
            sent = sent.thenRunAsync(() -> {
                try {
                    socket.getOutputStream().write(part);
                    socket.getOutputStream().flush();
                }
                catch (IOException ex) {
                    throw new IllegalStateException("the server closed the slow client's connection", ex);
                }
            }, CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS, clock));
        }
        return sent.thenApplyAsync(done -> {
            try (socket; InputStream in = socket.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            }
            catch (IOException ex) {
                throw new IllegalStateException(ex);
            }
        });
    }

    private static long healthMillis(int port) {
        long start = System.nanoTime();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("GET /actuator/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return answer.equals("HTTP/1.1 200") ? (System.nanoTime() - start) / 1_000_000 : Long.MAX_VALUE;
        }
        catch (IOException ex) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * Connections that each sent a request line and the start of a header, then one more byte of it at each
     * {@link #trickle}; when the server closed each, counted from its opening.
     */
    private static final class TrickledHeaders implements AutoCloseable {

        private final List<SocketChannel> channels = new ArrayList<>();
        private final List<Long> openedAt = new ArrayList<>();
        private final List<Double> secondsHeld = new ArrayList<>();
        private final ByteBuffer scratch = ByteBuffer.allocate(1024);

        /** Opens {@code more} connections, up to {@code count} in all. */
        void open(int port, int more, int count) {
            for (int i = 0; i < more && opened() < count; i++) {
                long start = System.nanoTime();
                try {
                    SocketChannel channel = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    channel.write(ByteBuffer.wrap("GET /actuator/health HTTP/1.1\r\nX-Trickle: ".getBytes(StandardCharsets.US_ASCII)));
                    channel.configureBlocking(false);
                    synchronized (this) {
                        channels.add(channel);
                        openedAt.add(start);
                        secondsHeld.add(-1.0);
                    }
                }
                catch (IOException ex) {
                    throw new IllegalStateException("a trickled connection could not be opened", ex);
                }
            }
        }

        synchronized int opened() {
            return channels.size();
        }

        /** Notes the connections the server closed, and sends each other one byte more. */
        synchronized void trickle() {
            for (int i = 0; i < channels.size(); i++) {
                if (secondsHeld.get(i) >= 0) {
                    continue;
                }
                SocketChannel channel = channels.get(i);
                try {
                    scratch.clear();
                    if (channel.read(scratch) < 0) {
                        closed(i);
                    }
                    else {
                        channel.write(ByteBuffer.wrap(new byte[] {'a'}));
                    }
                }
                catch (IOException ex) {
                    closed(i);
                }
            }
        }

        private void closed(int i) {
            secondsHeld.set(i, (System.nanoTime() - openedAt.get(i)) / 1e9);
            try {
                channels.get(i).close();
            }
            catch (IOException ex) {
                // closed by the server already
            }
        }

        synchronized long stillOpen() {
            return secondsHeld.stream().filter(seconds -> seconds < 0).count();
        }

        synchronized List<Double> secondsHeld() {
            return List.copyOf(secondsHeld);
        }

        @Override
        public synchronized void close() throws IOException {
            for (SocketChannel channel : channels) {
                channel.close();
            }
        }
    }
}
