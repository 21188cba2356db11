package dev.lunchrush.load.rush;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;

/**
 * The open-loop driver's HTTP/1.1 client: Netty's HTTP codec on one event-loop thread ({@code rush-http}, NIO),
 * at most {@link #MAX_CONNECTIONS} keep-alive connections per URI, opened when a request finds none free and
 * reused last-in first-out, so that a steady rate keeps using the same few. A request for which no connection is
 * free waits in line for one; that wait counts in its latency and in its timeout. The driver times its sends on
 * the same thread ({@link #eventLoop()}, {@link Alarm}).
 *
 * <p>What is the same for every request is built once per URI ({@link Target}): the address (resolved once), the
 * path, the {@code Host} header and the constant headers; a request adds its {@code Idempotency-Key} and length
 * and wraps its body. Every method but {@link #target}, {@link #close} and {@link Target#connect} runs on the event
 * loop.
 */
public final class DriverHttp implements AutoCloseable {

    /** At most this many connections to one URI; more requests in flight wait for one. */
    public static final int MAX_CONNECTIONS = 64;

    private static final AsciiString IDEMPOTENCY_KEY = AsciiString.cached("Idempotency-Key");
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    private static final AsciiString USER_AGENT = AsciiString.cached("lunch-rush-load-generator");
    private static final AsciiString ANY = AsciiString.cached("*/*");
    private static final HttpHeadersFactory HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);

    static {
        // Netty's leak detector samples one buffer in 128 with a stack trace, and marks every message it passes;
        // the driver's buffers live for one request on one thread. Left as asked when the property is set.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private final EventLoopGroup group;
    private final EventLoop loop;
    private final Duration requestTimeout;
    private final int maxConnections;
    private final List<Alarm> alarms = new ArrayList<>();
    private final Map<URI, Target> targets = new HashMap<>();

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
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** The client's one thread: every request's I/O, and the driver's timing. */
    EventLoop eventLoop() {
        return loop;
    }

    /** Requests to one URI (plain HTTP); the same target, and so the same connections, for the same URI. */
    synchronized Target target(URI uri) {
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("the driver sends plain HTTP to a host: " + uri);
        }
        return targets.computeIfAbsent(uri, Target::new);
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /**
     * A timer on the event loop for a task due at a nanosecond. NIO's selector waits whole milliseconds, rounded
     * to the nearest: a Netty timer due at an arbitrary nanosecond wakes the loop up to half a millisecond early,
     * and the loop then polls the selector without blocking until it is due. This timer is set a whole number of
     * milliseconds from the time it is set, so the selector's wait ends at or after it; and as any I/O on the loop
     * makes that no longer true, the client sets it again, from then, after each batch of I/O. It so runs its
     * task at most a millisecond after the due time (half of one on average), plus the machine's wake-up delay.
     */
    final class Alarm {

        private final Runnable task;
        private final Runnable fire = this::fire;
        private @Nullable ScheduledFuture<?> timer;
        private long dueNanos;
        private long deadline;

        private Alarm(Runnable task) {
            this.task = task;
        }

        /** Runs the task at or after {@code dueNanos} ({@link System#nanoTime()}); replaces an earlier setting. */
        void set(long dueNanos) {
            this.dueNanos = dueNanos;
            arm(System.nanoTime());
        }

        void cancel() {
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }

        private void arm(long now) {
            if (timer != null) {
                timer.cancel(false);
            }
            long millis = Math.max(0, (dueNanos - now + 999_999) / 1_000_000);
            deadline = now + millis * 1_000_000;
            timer = loop.schedule(fire, millis, TimeUnit.MILLISECONDS);
        }

        /**
         * The selector's wait from {@code now} is {@code deadline - now} rounded to the nearest millisecond: when that
         * rounds down, it would end before the deadline and the loop would poll; the timer is then set again from now.
         */
        private void refresh(long now) {
            if (timer != null && (deadline - now) % 1_000_000 < 600_000) {
                arm(now);
            }
        }

        private void fire() {
            timer = null;
            task.run();
        }
    }

    /** A timer for {@code task} on the event loop (see {@link Alarm}); call on the event loop. */
    Alarm alarm(Runnable task) {
        Alarm alarm = new Alarm(task);
        alarms.add(alarm);
        return alarm;
    }

    void release(Alarm alarm) {
        alarm.cancel();
        alarms.remove(alarm);
    }

    /** After I/O on the loop: its timers set again from now (see {@link Alarm}). */
    private void refreshAlarms() {
        if (!alarms.isEmpty()) {
            long now = System.nanoTime();
            for (int i = 0; i < alarms.size(); i++) {
                alarms.get(i).refresh(now);
            }
        }
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
     * Exactly one of {@link #answered} and {@link #failed} is called once per {@link Target#send}, on the loop.
     */
    abstract static class Exchange {

        private long handedNanos;

        /** The body to POST, or {@code null} for a GET. */
        abstract byte @Nullable [] body();

        /** Its {@code Idempotency-Key} (POST only). */
        abstract String idempotencyKey();

        abstract void answered(int status, @Nullable String retryAfter);

        abstract void failed(Failure kind, Throwable cause);
    }

    /** Requests to one URI, and their connections. */
    final class Target {

        private final InetSocketAddress address;
        private final String path;
        private final AsciiString host;
        private final Bootstrap bootstrap;
        private final HttpDecoderConfig decoding;
        private final HttpHeaders getHeaders;
        private final HttpHeaders postHeaders;
        private final ArrayDeque<Connection> idle = new ArrayDeque<>();
        private final List<Connection> open = new ArrayList<>();
        private final ArrayDeque<Exchange> waiting = new ArrayDeque<>();
        private int connecting;
        private int inFlight;
        private boolean sweeping;
        /** The sweep's timer, a whole number of milliseconds away like the driver's (see {@link Alarm}). */
        private @Nullable Alarm sweeper;
        private volatile boolean primed;
        private final Runnable sweep = this::sweep;

        private Target(URI uri) {
            int port = uri.getPort() != -1 ? uri.getPort() : 80;
            this.address = new InetSocketAddress(uri.getHost(), port);
            this.host = AsciiString.cached(port == 80 ? uri.getHost() : uri.getHost() + ":" + port);
            String rawPath = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            this.path = uri.getRawQuery() == null ? rawPath : rawPath + "?" + uri.getRawQuery();
            this.getHeaders = constantHeaders();
            this.postHeaders = constantHeaders().add(HttpHeaderNames.CONTENT_TYPE, APPLICATION_JSON);
            this.decoding = new HttpDecoderConfig().setHeadersFactory(HEADERS).setTrailersFactory(HEADERS);
            this.bootstrap = new Bootstrap().group(loop)
                    .channel(NioSocketChannel.class)
                    .remoteAddress(address)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(requestTimeout.toMillis(), 3_000))
                    .handler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel channel) {
                            channel.pipeline().addLast(new HttpClientCodec(decoding, false, false), new Connection(Target.this));
                        }
                    });
        }

        /**
         * Before a schedule starts: loads and runs the codec once and opens a connection if none is open, so that
         * neither is on the schedule's clock; waits at most {@code atMost} for the connection and says whether one
         * is open. Call from any thread but the loop.
         */
        boolean connect(Duration atMost) {
            if (!primed) {
                prime();
                primed = true;
            }
            try {
                if (loop.submit(() -> !open.isEmpty()).get(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
            catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
                return false;
            }
            ChannelFuture connected = bootstrap.connect();
            if (!connected.awaitUninterruptibly(atMost.toMillis()) || !connected.isSuccess()) {
                connected.channel().close();
                return false;
            }
            Connection connection = connected.channel().pipeline().get(Connection.class);
            loop.submit(() -> {
                if (connected.channel().isActive()) {
                    open.add(connection);
                    free(connection);
                }
            }).awaitUninterruptibly(atMost.toMillis());
            return true;
        }

        /**
         * Runs the codec once off the network, a request out and an answer in, so that loading its classes is not
         * on the first order's clock (it took the first send 140 ms late).
         */
        private void prime() {
            EmbeddedChannel channel = new EmbeddedChannel(new HttpClientCodec(decoding, false, false));
            try {
                Exchange probe = new Exchange() {
                    @Override
                    byte[] body() {
                        return new byte[] {'{', '}'};
                    }

                    @Override
                    String idempotencyKey() {
                        return "prime";
                    }

                    @Override
                    void answered(int status, @Nullable String retryAfter) {
                    }

                    @Override
                    void failed(Failure kind, Throwable cause) {
                    }
                };
                channel.writeOutbound(request(probe, false, channel.alloc()));
                channel.writeInbound(Unpooled.copiedBuffer(
                        "HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}",
                        java.nio.charset.StandardCharsets.US_ASCII));
            }
            finally {
                channel.finishAndReleaseAll();
            }
        }

        /** Sends the request now if a connection is free, else when one is (opening one if there are fewer than the most). */
        void send(Exchange exchange) {
            exchange.handedNanos = System.nanoTime();
            inFlight++;
            if (!sweeping) {
                sweeping = true;
                if (sweeper == null) {
                    sweeper = alarm(sweep);
                }
                sweeper.set(exchange.handedNanos + sweepNanos());
            }
            Connection connection;
            while ((connection = idle.pollLast()) != null) {
                if (connection.channel.isActive()) {
                    connection.write(exchange);
                    return;
                }
            }
            waiting.addLast(exchange);
            if (open.size() + connecting < maxConnections && connecting < waiting.size()) {
                open();
            }
        }

        private void open() {
            connecting++;
            bootstrap.connect().addListener((ChannelFutureListener) this::opened);
        }

        private void opened(ChannelFuture connected) {
            connecting--;
            if (connected.isSuccess()) {
                Connection connection = connected.channel().pipeline().get(Connection.class);
                open.add(connection);
                free(connection);
            }
            else {
                // the request that asked for this connection fails with it; the next one waiting tries again
                Exchange first = waiting.pollFirst();
                if (first != null) {
                    Throwable cause = connected.cause() != null ? connected.cause() : new ConnectException("not connected");
                    fail(first, connected.cause() instanceof io.netty.channel.ConnectTimeoutException ? Failure.TIMEOUT : Failure.OTHER,
                            cause);
                }
                if (!waiting.isEmpty() && open.size() + connecting < maxConnections && connecting < waiting.size()) {
                    open();
                }
            }
            refreshAlarms();
        }

        /** A connection with nothing to do: the next request waiting, or back to the idle ones. */
        private void free(Connection connection) {
            if (!connection.channel.isActive()) {
                return;
            }
            Exchange next = waiting.pollFirst();
            if (next != null) {
                connection.write(next);
            }
            else {
                idle.addLast(connection);
            }
        }

        private void answered(Connection connection, Exchange exchange, int status, @Nullable String retryAfter,
                boolean keepAlive) {
            inFlight--;
            if (keepAlive) {
                free(connection);
            }
            else {
                connection.channel.close();
            }
            exchange.answered(status, retryAfter);
        }

        private void fail(Exchange exchange, Failure kind, Throwable cause) {
            inFlight--;
            exchange.failed(kind, cause);
        }

        private void closed(Connection connection) {
            open.remove(connection);
            idle.remove(connection);
            if (!waiting.isEmpty() && open.size() + connecting < maxConnections && connecting < waiting.size()) {
                open();
            }
        }

        private long sweepNanos() {
            return TimeUnit.MILLISECONDS.toNanos(Math.max(10, Math.min(100, requestTimeout.toMillis() / 10)));
        }

        /** Fails what has waited longer than the request timeout; a connection whose answer is late is closed. */
        private void sweep() {
            long now = System.nanoTime();
            long timeout = requestTimeout.toNanos();
            Exchange first;
            while ((first = waiting.peekFirst()) != null && now - first.handedNanos >= timeout) {
                waiting.pollFirst();
                fail(first, Failure.TIMEOUT, new java.net.http.HttpTimeoutException("no connection in " + requestTimeout));
            }
            for (int i = open.size() - 1; i >= 0; i--) {
                Connection connection = open.get(i);
                Exchange current = connection.current;
                if (current != null && now - current.handedNanos >= timeout) {
                    connection.current = null;
                    connection.channel.close();
                    fail(current, Failure.TIMEOUT, new java.net.http.HttpTimeoutException("no answer in " + requestTimeout));
                }
            }
            if (inFlight > 0) {
                sweeper.set(now + sweepNanos());
            }
            else {
                sweeping = false;
            }
            refreshAlarms();
        }

        /**
         * The request of an exchange. The constant headers are built once: on the loop, each request is encoded as it
         * is written, so one set of headers serves them all, its key and length set anew each time ({@code shared});
         * elsewhere (priming) a set of its own. The body is copied into a buffer of the connection's allocator, which
         * the socket writes from as it is, after the encoded headers.
         */
        private DefaultFullHttpRequest request(Exchange exchange, boolean shared, ByteBufAllocator allocator) {
            byte[] body = exchange.body();
            if (body == null) {
                return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path, Unpooled.EMPTY_BUFFER,
                        shared ? getHeaders : constantHeaders(), EmptyHttpHeaders.INSTANCE);
            }
            HttpHeaders headers = shared ? postHeaders : constantHeaders().add(HttpHeaderNames.CONTENT_TYPE, APPLICATION_JSON);
            headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.length).set(IDEMPOTENCY_KEY, exchange.idempotencyKey());
            return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path,
                    allocator.directBuffer(body.length).writeBytes(body), headers, EmptyHttpHeaders.INSTANCE);
        }

        private HttpHeaders constantHeaders() {
            return HEADERS.newHeaders()
                    .add(HttpHeaderNames.HOST, host)
                    .add(HttpHeaderNames.USER_AGENT, USER_AGENT)
                    .add(HttpHeaderNames.ACCEPT, ANY);
        }
    }

    /** One connection: at most one request on it at a time; its answer read as it comes, the body dropped. */
    private final class Connection extends ChannelInboundHandlerAdapter {

        private final Target target;
        private Channel channel;
        private @Nullable Exchange current;
        private int status;
        private @Nullable String retryAfter;
        private boolean keepAlive;
        private @Nullable Throwable failure;

        Connection(Target target) {
            this.target = target;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            channel = ctx.channel();
        }

        void write(Exchange exchange) {
            current = exchange;
            status = 0;
            channel.writeAndFlush(target.request(exchange, true, channel.alloc()), channel.voidPromise());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object message) {
            try {
                if (message instanceof HttpResponse response) {
                    if (response.decoderResult().isFailure()) {
                        failure = response.decoderResult().cause();
                        channel.close();
                        return;
                    }
                    status = response.status().code();
                    retryAfter = status == 429 ? response.headers().get(HttpHeaderNames.RETRY_AFTER) : null;
                    keepAlive = HttpUtil.isKeepAlive(response);
                }
                if (message instanceof LastHttpContent last) {
                    if (last.decoderResult().isFailure()) {
                        failure = last.decoderResult().cause();
                        channel.close();
                        return;
                    }
                    Exchange exchange = current;
                    current = null;
                    if (exchange != null && status != 0) {
                        target.answered(this, exchange, status, retryAfter, keepAlive);
                    }
                    else {
                        // an answer to nothing: a request of ours timed out on this connection meanwhile
                        channel.close();
                    }
                }
            }
            finally {
                if (message instanceof HttpContent) {
                    ReferenceCountUtil.release(message);
                }
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            refreshAlarms();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (failure == null) {
                failure = cause;
            }
            if (channel.isActive()) {
                channel.close();
            }
            else {
                // a write that failed on a connection already closed: no channelInactive comes after it
                dropped();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            target.closed(this);
            dropped();
        }

        /** Closed before the whole answer: the request may not even have been read. */
        private void dropped() {
            Exchange exchange = current;
            current = null;
            if (exchange != null) {
                Throwable cause = failure != null ? failure : new ClosedChannelException();
                target.fail(exchange, cause instanceof IOException && !(cause instanceof ConnectException)
                        ? Failure.DROPPED : Failure.OTHER, cause);
            }
            refreshAlarms();
        }
    }
}
