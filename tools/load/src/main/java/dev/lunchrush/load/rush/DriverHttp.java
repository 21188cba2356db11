package dev.lunchrush.load.rush;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.FastThreadLocalThread;
import org.jspecify.annotations.Nullable;

/**
 * The open-loop driver's HTTP/1.1 client: Netty's HTTP codec on one NIO event-loop thread ({@code rush-http}), a
 * {@link ConnectionPool} of at most {@link #MAX_CONNECTIONS} keep-alive {@link Connection}s per URI, each request
 * built from its URI's {@link RequestTemplate}. The driver times its sends on the same thread ({@link #eventLoop()},
 * {@link #alarms()}).
 *
 * <p>Hand-made rather than Reactor Netty's {@code HttpClient}: the benchmark that pays for it is the driver's CPU
 * per order at 400/s by the shared script (BENCHMARKS.md), where the framework's client cost more than the 10% the
 * project allows. It carries what that client would: a bounded pool, keep-alive, one timeout per request, a dropped
 * connection told apart from a refused one.
 */
public final class DriverHttp implements AutoCloseable {

    /** At most this many connections to one URI; more requests in flight wait for one. */
    public static final int MAX_CONNECTIONS = 64;

    static {
        // Netty's leak detector samples one buffer in 128 with a stack trace, and marks every message it passes;
        // the driver's buffers live for one request on one thread. Left as asked when the property is set.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Alarms alarms;
    private final Duration requestTimeout;
    private final int maxConnections;
    private final Map<URI, ConnectionPool> targets = new HashMap<>();

    /**
     * @param requestTimeout how long a request may take, from when it is handed to the client (waiting for a
     *     connection included) until its answer has arrived; past it the request is failed as timed out and its
     *     connection closed
     */
    public DriverHttp(Duration requestTimeout) {
        this(requestTimeout, MAX_CONNECTIONS);
    }

    DriverHttp(Duration requestTimeout, int maxConnections) {
        this.requestTimeout = requestTimeout;
        this.maxConnections = maxConnections;
        this.group = new MultiThreadIoEventLoopGroup(1, runnable -> {
            Thread thread = new FastThreadLocalThread(runnable, "rush-http");
            thread.setDaemon(true);
            return thread;
        }, NioIoHandler.newFactory());
        this.loop = group.next();
        this.alarms = new Alarms(loop);
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** The client's one thread: every request's I/O, and the driver's timing. */
    EventLoop eventLoop() {
        return loop;
    }

    /** The timers of the client's thread, kept on time around its I/O; use on the event loop. */
    Alarms alarms() {
        return alarms;
    }

    /** Requests to one URI (plain HTTP); the same pool, and so the same connections, for the same URI. */
    synchronized ConnectionPool target(URI uri) {
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("the driver sends plain HTTP to a host: " + uri);
        }
        return targets.computeIfAbsent(uri, this::newPool);
    }

    private ConnectionPool newPool(URI uri) {
        int port = uri.getPort() != -1 ? uri.getPort() : 80;
        return new ConnectionPool(loop, alarms, new InetSocketAddress(uri.getHost(), port),
                new RequestTemplate(uri, port), requestTimeout, maxConnections);
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** What a failure without an answer means to the driver. */
    enum Failure {
        /** No answer in time (waiting for a connection, connecting, or waiting for the answer): outcome unknown. */
        TIMEOUT,
        /** The connection was closed under the request (a kept-alive one, typically): safe to send again once. */
        DROPPED,
        /** Anything else, a refused connection among them. */
        OTHER
    }

    /**
     * One request and how it ended; the driver's orders extend it, so that a request costs no object of its own.
     * Exactly one of {@link #answered} and {@link #failed} is called once per {@link ConnectionPool#send}, on the loop.
     */
    abstract static class Exchange {

        /** When the pool was handed the request ({@link System#nanoTime()}); its timeout counts from then. */
        long handedNanos;

        /** The body to POST, or {@code null} for a GET. */
        abstract byte @Nullable [] body();

        /** Its {@code Idempotency-Key} (POST only). */
        abstract String idempotencyKey();

        abstract void answered(int status, @Nullable String retryAfter);

        abstract void failed(Failure kind, Throwable cause);
    }
}
