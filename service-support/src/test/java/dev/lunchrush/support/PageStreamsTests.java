package dev.lunchrush.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.support.server.ServerLimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link PageStreams} on a real Tomcat, with real HTTP clients: a page pushed an event every 100 ms to every open
 * stream. A viewer that never reads is dropped once its socket and its buffer are full, while the others get every
 * push on time; past the bound of open streams a 503 (problem+json); a {@code HEAD} opens no stream. The tests of
 * small events share one server (the page's streams: at most 3), each beginning once none is open.
 */
class PageStreamsTests {

    private static final Pattern TICK = Pattern.compile("^data:\\{\"seq\":(-?\\d+),\"dueAt\":(\\d+)");

    private static final String[] SMALL = {"--page.padding=0", "--lunchrush.server.page-streams=3"};

    /** The server of small events, started at its first test, closed after the class. */
    private static ConfigurableApplicationContext small;

    /** This test's server, when it has one of its own. */
    private ConfigurableApplicationContext context;
    private int port;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterEach
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @AfterAll
    static void stopSmall() {
        if (small != null) {
            small.close();
            small = null;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration(exclude = {SecurityAutoConfiguration.class, UserDetailsServiceAutoConfiguration.class,
        ServletWebSecurityAutoConfiguration.class, SecurityFilterAutoConfiguration.class,
        ManagementWebSecurityAutoConfiguration.class})
    static class PageApp {

        @Bean
        Page page(ServerLimits limits, @Value("${page.padding}") int padding) {
            return new Page(limits, padding);
        }
    }

    record Tick(long seq, long dueAt, String padding) {
    }

    /**
     * {@code GET /stream}: a tick due every 100 ms, each with {@code padding} characters besides; how many of its
     * streams the server has not ended yet.
     */
    @RestController
    static class Page {

        private final PageStreams streams;
        private final ScheduledExecutorService pusher = Executors.newSingleThreadScheduledExecutor();
        private final AtomicLong seq = new AtomicLong();
        private final Set<SseEmitter> unended = ConcurrentHashMap.newKeySet();

        Page(ServerLimits limits, int padding) {
            this.streams = new PageStreams(Duration.ZERO, limits);
            String filler = "x".repeat(padding);
            // each tick says when it was due: a push that waited for a viewer shows as a late tick to the others
            long firstDue = System.currentTimeMillis() + 100;
            pusher.scheduleAtFixedRate(() -> {
                long next = seq.incrementAndGet();
                streams.send("tick", new Tick(next, firstDue + (next - 1) * 100, filler));
            }, 100, 100, TimeUnit.MILLISECONDS);
        }

        @GetMapping("/stream")
        SseEmitter stream() {
            SseEmitter emitter = streams.open("tick", new Tick(0, System.currentTimeMillis(), ""));
            unended.add(emitter);
            // the async request's end, whatever ended it (the stream's end, a failed write, a timeout)
            emitter.onCompletion(() -> unended.remove(emitter));
            return emitter;
        }

        int unended() {
            return unended.size();
        }

        @GetMapping("/empty")
        boolean empty() {
            return streams.isEmpty();
        }

        /** Before the server's graceful shutdown, which would wait for the open streams. */
        @EventListener(ContextClosedEvent.class)
        void closeAll() {
            pusher.shutdownNow();
            streams.closeAll();
        }
    }

    private void start(String... args) {
        context = run(args);
        port = ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    /** The server of small events, no stream open: a viewer of an earlier test gone, found gone at a push. */
    private void startSmall() {
        if (small == null) {
            small = run(SMALL);
        }
        port = ((WebServerApplicationContext) small).getWebServer().getPort();
        await().atMost(Duration.ofSeconds(10)).until(this::empty);
    }

    private static ConfigurableApplicationContext run(String... args) {
        String[] common = {"--server.address=127.0.0.1", "--server.port=0", "--spring.mvc.problemdetails.enabled=true"};
        return new SpringApplicationBuilder(PageApp.class).web(WebApplicationType.SERVLET)
                .run(Stream.concat(Stream.of(common), Stream.of(args)).toArray(String[]::new));
    }

    @Test
    void aViewerThatStopsReadingIsDroppedAndKeepsNoOtherWaiting() throws Exception {
        // 64 KB a tick: a viewer that does not read fills its socket within seconds; a write waits at most 3 s for it
        start("--page.padding=65536", "--lunchrush.server.page-stream-buffer=4", "--server.tomcat.connection-timeout=3s");
        Page page = context.getBean(Page.class);
        try (Viewer first = new Viewer(); Viewer second = new Viewer(); StoppingViewer stopping = new StoppingViewer()) {
            // all three read while the JVM warms up (its first answers are slow whatever happens), until the readers
            // get their ticks on time; then one stops
            await().atMost(Duration.ofSeconds(60)).until(() -> page.unended() == 3
                    && first.onTimeLately() && second.onTimeLately());
            long stoppedAt = first.lastSeq();
            stopping.stopReading();
            // its socket fills, then its buffer; it is dropped, and its stream ends once the write under way gave up
            await().atMost(Duration.ofSeconds(60)).until(() -> page.unended() == 2);
            // the others' ticks through its end and a second past it, all of them, each as late as it came
            long endedAt = first.lastSeq();
            await().atMost(Duration.ofSeconds(60)).until(() -> first.lastSeq() >= endedAt + 10
                    && second.lastSeq() >= endedAt + 10);

            assertThat(first.slowestMillisAfter(stoppedAt)).as("the first reader's slowest tick since, ms after it was due")
                    .isBetween(0L, 999L);
            assertThat(second.slowestMillisAfter(stoppedAt)).as("the second reader's slowest tick since, ms after it was due")
                    .isBetween(0L, 999L);
            // dropped once it stopped reading: the server ended its stream, and it missed ticks
            String got = stopping.readUntilTheEnd();
            assertThat(got).as("what the viewer that stopped reading got").startsWith("HTTP/1.1 200");
            assertThat((long) got.split("event:tick", -1).length - 1).as("ticks the viewer that stopped reading got")
                    .isBetween(stoppedAt - 5, first.lastSeq() - 20);
        }
    }

    @Test
    void pastTheBoundOfOpenStreamsA503() throws Exception {
        startSmall();
        try (Viewer first = new Viewer(); Viewer second = new Viewer(); Viewer third = new Viewer()) {
            HttpResponse<Stream<String>> refused = http.send(HttpRequest.newBuilder(uri("/stream"))
                    .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
            try (Stream<String> body = refused.body()) {
                assertThat(refused.statusCode()).isEqualTo(503);
                assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                assertThat(refused.headers().firstValue("Retry-After")).isPresent();
                assertThat(body.collect(Collectors.joining("\n"))).contains("3 live pages are open here already");
            }

            // a viewer gone frees its place: the server finds it gone at a push
            third.close();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                try (Viewer another = new Viewer()) {
                    assertThat(another.status).isEqualTo(200);
                }
            });
            assertThat(first.ticks()).isPositive();
            assertThat(second.ticks()).isPositive();
        }
    }

    @Test
    void aHeadOpensNoStream() throws Exception {
        startSmall();
        try (Socket head = new Socket(InetAddress.getLoopbackAddress(), port)) {
            head.setSoTimeout(5_000);
            head.getOutputStream().write("HEAD /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = readHead(head.getInputStream());
            assertThat(answer).startsWith("HTTP/1.1 200").containsIgnoringCase("content-type: text/event-stream");
        }
        // no stream was opened for the HEAD: the pushes go to no one
        assertThat(empty()).as("no stream open").isTrue();
    }

    private boolean empty() throws IOException, InterruptedException {
        return Boolean.parseBoolean(http.send(HttpRequest.newBuilder(uri("/empty")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
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

    /**
     * A raw connection to {@code GET /stream} with a small receive buffer, read on a thread of its own until
     * {@link #stopReading}, then not at all until {@link #readUntilTheEnd}.
     */
    private final class StoppingViewer implements AutoCloseable {

        private final Socket socket = new Socket();
        private final StringBuilder got = new StringBuilder();
        private final Thread reader;
        private volatile boolean reading = true;

        StoppingViewer() throws IOException {
            socket.setReceiveBufferSize(65_536);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            socket.getOutputStream().write("GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            reader = new Thread(() -> {
                while (reading && read()) {
                    // on until told to stop
                }
            }, "stopping-viewer");
            reader.setDaemon(true);
            reader.start();
        }

        void stopReading() throws InterruptedException {
            reading = false;
            reader.join(5_000);
        }

        /** Everything it got until the server ended its stream (within 30 s), as text. */
        String readUntilTheEnd() throws IOException {
            socket.setSoTimeout(30_000);
            while (read()) {
                // to the end
            }
            return got.toString();
        }

        private boolean read() {
            byte[] buffer = new byte[65_536];
            try {
                int read = socket.getInputStream().read(buffer);
                if (read < 0) {
                    return false;
                }
                got.append(new String(buffer, 0, read, StandardCharsets.US_ASCII));
                return true;
            }
            catch (SocketTimeoutException ex) {
                throw new AssertionError("the server did not end the stream of the viewer that stopped reading", ex);
            }
            catch (IOException reset) {
                // ended by a reset: as good as a close
                return false;
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** A page's stream read by Java's HTTP client as it comes; each tick's delay since it was pushed. */
    private final class Viewer implements AutoCloseable {

        final int status;
        private final Stream<String> lines;
        /** each tick's delay, by its sequence number */
        private final ConcurrentSkipListMap<Long, Long> millisBySeq = new ConcurrentSkipListMap<>();

        Viewer() throws IOException, InterruptedException {
            HttpResponse<Stream<String>> response = http.send(HttpRequest.newBuilder(uri("/stream"))
                    .header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
            status = response.statusCode();
            lines = response.body();
            Thread reader = new Thread(() -> {
                try {
                    lines.forEach(this::line);
                }
                catch (UncheckedIOException | IllegalStateException closed) {
                    // the viewer closed its stream, or the server ended it
                }
            }, "viewer");
            reader.setDaemon(true);
            reader.start();
        }

        private void line(String line) {
            Matcher tick = TICK.matcher(line.length() > 80 ? line.substring(0, 80) : line);
            if (tick.find() && Long.parseLong(tick.group(1)) > 0) {
                millisBySeq.put(Long.parseLong(tick.group(1)), System.currentTimeMillis() - Long.parseLong(tick.group(2)));
            }
        }

        long ticks() {
            return millisBySeq.size();
        }

        /** Whether its last 10 ticks came, each within 200 ms of when it was due. */
        boolean onTimeLately() {
            long last = lastSeq();
            long slowest = last > 10 ? slowestMillisAfter(last - 10) : -1;
            return slowest >= 0 && slowest < 200;
        }

        long lastSeq() {
            return millisBySeq.isEmpty() ? 0 : millisBySeq.lastKey();
        }

        /** The longest delay of the ticks after the one numbered {@code seq}; -1 if it missed one of them. */
        long slowestMillisAfter(long seq) {
            Map<Long, Long> after = new TreeMap<>(millisBySeq.tailMap(seq, false));
            if (after.isEmpty() || after.size() != ((TreeMap<Long, Long>) after).lastKey() - seq) {
                return -1;
            }
            return after.values().stream().mapToLong(Long::longValue).max().orElse(-1);
        }

        @Override
        public void close() {
            lines.close();
        }
    }
}
