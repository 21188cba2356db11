package dev.lunchrush.analyticsdashboard.receiving;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;

/**
 * The order service's {@code GET /feed} on 127.0.0.1: hands out at most {@code max} queued events, which
 * leave it for good, counts the pulls, and can hold pulls open (the long poll) until released, then hand
 * out what is queued.
 */
public final class FeedStub implements AutoCloseable {

    /** The admin password the services of these tests run with: the analytics job's credential for the feed. */
    public static final String JOB_PASSWORD = "test-admin-secret";
    private static final String JOB_CREDENTIAL = "Basic " + Base64.getEncoder()
            .encodeToString(("admin:" + JOB_PASSWORD).getBytes(StandardCharsets.UTF_8));

    private static final Pattern MAX = Pattern.compile("max=(\\d+)");

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final Queue<OrderEvent> events = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pulls = new AtomicInteger();
    private volatile CountDownLatch release = new CountDownLatch(0);
    private final CountDownLatch heldPull = new CountDownLatch(1);

    FeedStub() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        server.setExecutor(handlers);
        server.createContext("/feed", this::answer);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    void add(OrderEvent event) {
        events.add(event);
    }

    int left() {
        return events.size();
    }

    int pulls() {
        return pulls.get();
    }

    /** From now on every pull is held open, with nothing handed out, until {@link #release()}. */
    void hold() {
        release = new CountDownLatch(1);
    }

    void release() {
        release.countDown();
    }

    boolean awaitHeldPull(Duration timeout) throws InterruptedException {
        return heldPull.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void answer(HttpExchange exchange) throws IOException {
        pulls.incrementAndGet();
        CountDownLatch held = release;
        if (held.getCount() > 0) {
            heldPull.countDown();
            try {
                held.await(10, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        handOut(exchange, events, asked -> { });
    }

    /**
     * Answers a {@code GET /feed?max=N} as the order service does: 401 without the job's credential, else at most {@code max} (500 when not
     * asked) of the queued events, as a JSON array, taken from the queue; {@code handedOut} is told the
     * {@code max} asked before the answer goes, when there was anything to hand out.
     */
    public static void handOut(HttpExchange exchange, Queue<OrderEvent> events, IntConsumer handedOut) throws IOException {
        if (!JOB_CREDENTIAL.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            // as the order service does: without the job's credential, 401 and nothing taken
            exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"Realm\"");
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
            return;
        }
        Matcher matcher = MAX.matcher(String.valueOf(exchange.getRequestURI().getQuery()));
        int max = matcher.find() ? Integer.parseInt(matcher.group(1)) : 500;
        StringBuilder body = new StringBuilder("[");
        int handed = 0;
        OrderEvent event;
        while (handed < max && (event = events.poll()) != null) {
            body.append(handed++ == 0 ? "" : ",").append(new String(OrderEventCodec.encode(event), StandardCharsets.UTF_8));
        }
        if (handed > 0) {
            handedOut.accept(max);
        }
        byte[] bytes = body.append(']').toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
        handlers.shutdownNow();
    }
}
