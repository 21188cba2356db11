package dev.lunchrush.loadgenerator.rush;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiFunction;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.resolver.DefaultAddressResolverGroup;
import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.channel.AbortedException;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * The open-loop driver's HTTP/1.1 client: reactor-netty on one event-loop thread ({@code rush-http-epoll-1}, or
 * {@code -nio-} where Netty's native transport does not load) and a small fixed pool of keep-alive connections
 * ({@link #MAX_CONNECTIONS}), shared by the drivers that use it (the bench's warm-up and measured steps keep
 * their connections). The driver times its sends on the same thread ({@link #scheduler()}). It replaced
 * {@code java.net.http.HttpClient} with a thread per send's timing and four for its I/O, which cost the
 * generator 1.2-1.7 ms of CPU per order here (BENCHMARKS.md, "Load generator: the HTTP client").
 *
 * <p>What is the same for every request is built once, in {@link #target}: the address (resolved once), the
 * path, the constant headers; a request adds its {@code Idempotency-Key} and wraps its body, nothing is parsed.
 */
public final class DriverHttp implements AutoCloseable {

    /** At most this many connections to one service; more requests in flight wait in the pool for one. */
    public static final int MAX_CONNECTIONS = 64;

    private static final AsciiString IDEMPOTENCY_KEY = AsciiString.cached("Idempotency-Key");
    private static final AsciiString APPLICATION_JSON = AsciiString.cached("application/json");
    private static final String USER_AGENT = "lunch-rush-load-generator";

    private final LoopResources loop;
    private final EventLoop eventLoop;
    private final ConnectionProvider pool;
    private final HttpClient base;
    private final Duration requestTimeout;

    /**
     * @param requestTimeout how long a request may wait for a pooled connection, and then for its answer
     *     (each; the JDK client's one timeout covered both)
     */
    public DriverHttp(Duration requestTimeout) {
        this(requestTimeout, MAX_CONNECTIONS);
    }

    DriverHttp(Duration requestTimeout, int maxConnections) {
        this.requestTimeout = requestTimeout;
        this.loop = LoopResources.create("rush-http", 1, true);
        // the one thread of the client's group (epoll where Netty's native transport loads, else NIO)
        this.eventLoop = loop.onClient(true).next();
        this.pool = ConnectionProvider.builder("rush")
                .maxConnections(maxConnections)
                // the driver's in-flight limit bounds the queue; the pool's own would fail requests instead
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(requestTimeout)
                // closed here before the service's keep-alive timeout closes it under a request
                .maxIdleTime(Duration.ofSeconds(10))
                .build();
        this.base = HttpClient.create(pool)
                .runOn(loop, true)
                .resolver(DefaultAddressResolverGroup.INSTANCE)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 3000)
                .keepAlive(true)
                // the driver re-sends a request whose connection was dropped itself, once, and counts it
                .disableRetry(true)
                .responseTimeout(requestTimeout);
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** The client's event-loop thread, which the driver times its sends on (it does the I/O of every request). */
    ScheduledExecutorService scheduler() {
        return eventLoop;
    }

    /** How a request ended: an answer (status, and Retry-After when it is a 429), or no answer. */
    interface Outcome {

        void answered(int status, @Nullable String retryAfter);

        void failed(Throwable failure);
    }

    /** Requests to one URI. */
    interface Target {

        void post(byte[] body, String idempotencyKey, Outcome outcome);

        void get(Outcome outcome);

        /** Loads and connects what the first request needs, before the schedule starts (see {@link ReactorTarget#prime}). */
        default void prime(Duration atMost) {
        }
    }

    /** Requests to one URI, their constant parts built once. */
    private final class ReactorTarget implements Target {

        private final HttpClient.RequestSender post;
        private final HttpClient.ResponseReceiver<?> get;
        private final HttpClient.ResponseReceiver<?> head;

        private ReactorTarget(URI uri) {
            int port = uri.getPort() != -1 ? uri.getPort() : 80;
            InetSocketAddress address = new InetSocketAddress(uri.getHost(), port);
            String host = port == 80 ? uri.getHost() : uri.getHost() + ":" + port;
            String rawPath = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            String path = uri.getRawQuery() == null ? rawPath : rawPath + "?" + uri.getRawQuery();
            HttpClient client = base.remoteAddress(() -> address)
                    .headers(headers -> headers.set(HttpHeaderNames.HOST, host)
                            .set(HttpHeaderNames.USER_AGENT, USER_AGENT)
                            .set(HttpHeaderNames.ACCEPT, "*/*"));
            this.get = client.get().uri(path);
            this.head = client.head().uri(path);
            this.post = client.headers(headers -> headers.set(HttpHeaderNames.CONTENT_TYPE, APPLICATION_JSON))
                    .post()
                    .uri(path);
        }

        @Override
        public void post(byte[] body, String idempotencyKey, Outcome outcome) {
            post.send((request, out) -> {
                request.header(IDEMPOTENCY_KEY, idempotencyKey);
                return out.sendObject(Unpooled.wrappedBuffer(body));
            }).response(DRAIN).subscribe(new Reply(outcome));
        }

        @Override
        public void get(Outcome outcome) {
            get.response(DRAIN).subscribe(new Reply(outcome));
        }

        /**
         * One {@code HEAD} of the URI, whatever it answers (it places nothing): the first request loads
         * reactor-netty's classes and opens a connection, seconds on a busy machine, and on the event loop
         * that also times the sends it would make the first orders late by as much.
         */
        @Override
        public void prime(Duration atMost) {
            try {
                head.response(DRAIN).then().onErrorResume(failure -> Mono.empty()).block(atMost);
            }
            catch (RuntimeException notInTime) {
                // the schedule starts anyway; its lag says what the client cost
            }
        }
    }

    Target target(URI uri) {
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("the driver sends plain HTTP to a host: " + uri);
        }
        return new ReactorTarget(uri);
    }

    /**
     * The response once its body is read (and released): {@code response()} alone would close the connection
     * when the body had not arrived with the headers, a new connection for most requests.
     */
    private static final BiFunction<HttpClientResponse, ByteBufFlux, Mono<HttpClientResponse>> DRAIN =
            (response, body) -> body.then(Mono.just(response));

    /** The response's status and headers. */
    private static final class Reply implements CoreSubscriber<HttpClientResponse> {

        private final Outcome outcome;
        private boolean done;

        Reply(Outcome outcome) {
            this.outcome = outcome;
        }

        @Override
        public void onSubscribe(Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(HttpClientResponse response) {
            done = true;
            int status = response.status().code();
            HttpHeaders headers = response.responseHeaders();
            outcome.answered(status, status == 429 ? headers.get(HttpHeaderNames.RETRY_AFTER) : null);
        }

        @Override
        public void onError(Throwable failure) {
            if (!done) {
                done = true;
                outcome.failed(failure);
            }
        }

        @Override
        public void onComplete() {
            if (!done) {
                done = true;
                outcome.failed(new IOException("no response"));
            }
        }
    }

    /** What a failure without an answer means to the driver. */
    enum Failure {
        /** No answer in time (connecting, waiting for a connection, or for the answer): outcome unknown. */
        TIMEOUT,
        /** The connection was closed under the request (a pooled keep-alive one, typically): safe to re-send once. */
        DROPPED,
        /** Anything else, a refused connection among them. */
        OTHER;

        static Failure of(Throwable failure) {
            if (failure instanceof io.netty.handler.timeout.TimeoutException
                    || failure instanceof java.util.concurrent.TimeoutException
                    || failure instanceof io.netty.channel.ConnectTimeoutException
                    || failure instanceof java.net.SocketTimeoutException
                    || failure instanceof HttpTimeoutException) {
                return TIMEOUT;
            }
            if ((failure instanceof IOException && !(failure instanceof ConnectException))
                    || AbortedException.isConnectionReset(failure) || failure instanceof AbortedException) {
                return DROPPED;
            }
            return OTHER;
        }
    }

    @Override
    public void close() {
        pool.disposeLater().block(Duration.ofSeconds(5));
        loop.disposeLater(Duration.ZERO, Duration.ofSeconds(2)).block(Duration.ofSeconds(5));
    }
}
