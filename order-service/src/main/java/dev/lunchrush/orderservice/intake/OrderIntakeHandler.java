package dev.lunchrush.orderservice.intake;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.MediaType;

import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.problems.ProblemDocuments;
import dev.lunchrush.orderservice.problems.ProblemException;
import dev.lunchrush.orderservice.web.RequestBodies;

/**
 * {@code POST /orders} answered on the connection itself, between Netty's HTTP codec and the rest of
 * the server: an order is read, checked and written ({@link OrderPlacement}) and its answer written back
 * without Spring WebFlux's dispatch, filters and reactive plumbing, which cost an order several times
 * what the order itself costs. Everything else on the connection (other paths, other methods) goes on to
 * WebFlux untouched, and so does an order this handler does not take: one that arrives while a request
 * handed on is still unanswered (HTTP/1.1 answers in order), or one that expects {@code 100 Continue}.
 * Answers are those of {@link OrderController}: 201 with {@code Location}, the stored answer of an
 * Idempotency-Key, {@code application/problem+json} for 400, 413, 415, 429, 503.
 *
 * <p>One instance per connection, used on its event loop only. While its answer is on its way, what
 * the client sends next is held and handled after it, in order.
 */
final class OrderIntakeHandler extends ChannelDuplexHandler {

    private static final Logger log = LoggerFactory.getLogger(OrderIntakeHandler.class);

    static final String PATH = "/orders";

    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final OrderPlacement placement;
    private final ProblemDocuments problems;
    private final int maxBody;
    private final boolean takesOrders;

    /** Requests handed on to WebFlux whose answer has not been written yet. */
    private int handedOn;
    /** The parts of the current request go to WebFlux. */
    private boolean passing;
    /** The order being read, if this handler took the current request. */
    private @Nullable Order order;
    /** A body over the limit was answered 413 before its end: the rest is read and dropped, then the connection closed. */
    private boolean draining;
    private long drained;
    /** Our answer is on its way: what comes meanwhile waits in {@link #held}. */
    private boolean answering;
    private final ArrayDeque<Object> held = new ArrayDeque<>();

    OrderIntakeHandler(OrderPlacement placement, ProblemDocuments problems, int maxBody, boolean takesOrders) {
        this.placement = placement;
        this.problems = problems;
        this.maxBody = maxBody;
        this.takesOrders = takesOrders;
    }

    /** An order being read: its body so far, or the problem it will be answered with once it is read. */
    private static final class Order {
        final boolean keepAlive;
        final boolean http10;
        final @Nullable String idempotencyKey;
        byte[] body;
        int length;
        @Nullable ProblemException refused;

        Order(boolean keepAlive, boolean http10, @Nullable String idempotencyKey, long declaredLength) {
            this.keepAlive = keepAlive;
            this.http10 = http10;
            this.idempotencyKey = idempotencyKey;
            this.body = new byte[declaredLength > 0 ? (int) declaredLength : 1024];
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (draining && msg instanceof HttpContent content) {
            drain(ctx, content);
            return;
        }
        if (answering || !held.isEmpty()) {
            held.add(msg);
            return;
        }
        read(ctx, msg);
    }

    private void read(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request) {
            if (takesOrders && handedOn == 0 && takes(request)) {
                start(request);
                if (!(msg instanceof HttpContent)) {
                    ctx.read();
                }
            }
            else {
                handedOn++;
                passing = !(msg instanceof LastHttpContent);
                ctx.fireChannelRead(msg);
                return;
            }
        }
        if (msg instanceof HttpContent content) {
            if (passing) {
                passing = !(msg instanceof LastHttpContent);
                ctx.fireChannelRead(msg);
                return;
            }
            Order reading = order;
            if (reading == null) {
                drain(ctx, content);
                return;
            }
            try {
                append(ctx, reading, content);
            }
            finally {
                content.release();
            }
            if (order != null && msg instanceof LastHttpContent) {
                order = null;
                answer(ctx, reading);
            }
            else if (order != null) {
                // Reactor Netty reads only when asked (auto-read is off): the rest of the body
                ctx.read();
            }
            return;
        }
        if (!(msg instanceof HttpRequest)) {
            ctx.fireChannelRead(msg);
        }
    }

    private static boolean takes(HttpRequest request) {
        if (!request.decoderResult().isSuccess() || !HttpMethod.POST.equals(request.method())
                || request.headers().contains(HttpHeaderNames.EXPECT)) {
            return false;
        }
        String uri = request.uri();
        int query = uri.indexOf('?');
        return (query < 0 ? uri : uri.substring(0, query)).equals(PATH);
    }

    private void start(HttpRequest request) {
        HttpHeaders headers = request.headers();
        long declared = HttpUtil.getContentLength(request, -1L);
        Order reading = new Order(HttpUtil.isKeepAlive(request), request.protocolVersion().equals(HttpVersion.HTTP_1_0),
                headers.get(IDEMPOTENCY_KEY),
                Math.min(declared, maxBody));
        String contentType = headers.get(HttpHeaderNames.CONTENT_TYPE);
        if (!isJson(contentType)) {
            reading.refused = ProblemDocuments.unsupportedMediaType(contentType);
        }
        else if (declared > maxBody) {
            reading.refused = RequestBodies.tooLarge(maxBody);
        }
        order = reading;
    }

    private static boolean isJson(@Nullable String contentType) {
        if (contentType == null) {
            return false;
        }
        try {
            return MediaType.APPLICATION_JSON.includes(MediaType.parseMediaType(contentType));
        }
        catch (IllegalArgumentException ex) {
            return false;
        }
    }

    private void append(ChannelHandlerContext ctx, Order reading, HttpContent content) {
        int readable = content.content().readableBytes();
        if (reading.refused != null) {
            if (reading.refused.status().value() == 413) {
                tooLarge(ctx, reading, content);
            }
            return;
        }
        if ((long) reading.length + readable > maxBody) {
            tooLarge(ctx, reading, content);
            return;
        }
        if (reading.length + readable > reading.body.length) {
            reading.body = Arrays.copyOf(reading.body, Math.min(maxBody, Math.max(reading.length + readable,
                    reading.body.length * 2)));
        }
        content.content().readBytes(reading.body, reading.length, readable);
        reading.length += readable;
    }

    /**
     * A body over the limit is answered 413 at once, without keeping what comes: the rest of it is read and
     * dropped (closing with unread bytes would reset the connection before the client reads the answer),
     * then the connection is closed; a client that sends far more than that is cut off.
     */
    private void tooLarge(ChannelHandlerContext ctx, Order reading, HttpContent content) {
        order = null;
        answering = true;
        draining = true;
        drained = 0;
        FullHttpResponse http = response(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                problems.json(RequestBodies.tooLarge(maxBody), PATH), MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        ctx.writeAndFlush(http);
        if (content instanceof LastHttpContent) {
            ctx.close();
        }
    }

    private void drain(ChannelHandlerContext ctx, HttpContent content) {
        drained += content.content().readableBytes();
        boolean last = content instanceof LastHttpContent;
        content.release();
        if (draining && (last || drained > 16L * maxBody)) {
            draining = false;
            ctx.close();
        }
        else if (draining) {
            ctx.read();
        }
    }

    private void answer(ChannelHandlerContext ctx, Order reading) {
        answering = true;
        if (reading.refused != null) {
            write(ctx, reading, reading.refused);
            return;
        }
        byte[] body = reading.length == reading.body.length ? reading.body : Arrays.copyOf(reading.body, reading.length);
        CompletableFuture<StoredResponse> answer;
        try {
            answer = placement.place(body, reading.idempotencyKey, ctx.executor());
        }
        catch (RuntimeException ex) {
            answer = CompletableFuture.failedFuture(ex);
        }
        answer.whenComplete((response, failure) -> {
            if (ctx.executor().inEventLoop()) {
                written(ctx, reading, response, failure);
            }
            else {
                ctx.executor().execute(() -> written(ctx, reading, response, failure));
            }
        });
    }

    private void written(ChannelHandlerContext ctx, Order reading, @Nullable StoredResponse response,
            @Nullable Throwable failure) {
        if (failure == null && response != null) {
            FullHttpResponse http = response(HttpResponseStatus.valueOf(response.status()),
                    response.body().getBytes(StandardCharsets.UTF_8), "application/json");
            if (response.location() != null) {
                http.headers().set(HttpHeaderNames.LOCATION, response.location());
            }
            if (response.replayed()) {
                http.headers().set("Idempotent-Replayed", "true");
            }
            send(ctx, reading, http);
            return;
        }
        Throwable cause = failure == null ? new IllegalStateException("no answer") : ProblemException.unwrap(failure);
        if (cause instanceof ProblemException problem) {
            write(ctx, reading, problem);
        }
        else {
            log.error("unexpected error", cause);
            write(ctx, reading, ProblemDocuments.unexpected());
        }
    }

    private void write(ChannelHandlerContext ctx, Order reading, ProblemException problem) {
        FullHttpResponse http = response(HttpResponseStatus.valueOf(problem.status().value()),
                problems.json(problem, PATH), MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        problem.headers().forEach((name, value) -> http.headers().set(name, value));
        send(ctx, reading, http);
    }

    private static FullHttpResponse response(HttpResponseStatus status, byte[] body, String contentType) {
        FullHttpResponse http = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        http.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType).setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return http;
    }

    /** Writes the answer; then, on a connection kept alive, goes on with what came meanwhile. */
    private void send(ChannelHandlerContext ctx, Order reading, FullHttpResponse http) {
        if (!reading.keepAlive || HttpHeaderValues.CLOSE.contentEqualsIgnoreCase(http.headers().get(HttpHeaderNames.CONNECTION))) {
            http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(http).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        if (reading.http10) {
            http.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        ctx.writeAndFlush(http);
        answering = false;
        while (!answering && !held.isEmpty()) {
            read(ctx, held.poll());
        }
        if (!answering && order == null && !passing && handedOn == 0) {
            // the next request: Reactor Netty reads only when asked
            ctx.read();
        }
    }

    /**
     * Counts the answers WebFlux writes, so that an order is taken only when none is owed; and asks for the
     * next bytes once each such answer is written. Reactor Netty reads a keep-alive connection only when
     * asked, and in the version here (1.3.6, also 1.3.7 and 1.3.8) a request that arrived while the one before
     * was still finishing, once answered, can leave nobody asking: the connection then hangs (reactor-netty
     * issue 4361, fixed after 1.3.8). Asking once more after an answer costs nothing when a read is pending.
     */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof LastHttpContent
                && !(msg instanceof HttpResponse response && response.status().codeClass() == HttpStatusClass.INFORMATIONAL)) {
            if (handedOn > 0) {
                handedOn--;
            }
            ChannelPromise written = promise.unvoid();
            written.addListener(future -> {
                if (ctx.channel().isActive()) {
                    ctx.read();
                }
            });
            ctx.write(msg, written);
            return;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        order = null;
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
    }
}
