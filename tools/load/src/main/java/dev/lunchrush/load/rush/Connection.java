package dev.lunchrush.load.rush;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;

/**
 * One keep-alive connection of a {@link ConnectionPool}, the last handler of its pipeline: at most one request on it
 * at a time; its answer read as it comes (the status, a 429's {@code Retry-After}, whether it may be kept alive), the
 * body dropped. A connection closed before the whole answer fails its request as dropped: the request may not even
 * have been read. On the event loop only.
 */
final class Connection extends ChannelInboundHandlerAdapter {

    private final ConnectionPool pool;
    private final RequestTemplate template;
    private final Alarms alarms;
    private Channel channel;
    private DriverHttp.@Nullable Exchange current;
    private int status;
    private @Nullable String retryAfter;
    private boolean keepAlive;
    private @Nullable Throwable failure;

    Connection(ConnectionPool pool, RequestTemplate template, Alarms alarms) {
        this.pool = pool;
        this.template = template;
        this.alarms = alarms;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    boolean isActive() {
        return channel.isActive();
    }

    /** Sends the exchange's request on this connection, which has none in flight. */
    void write(DriverHttp.Exchange exchange) {
        current = exchange;
        status = 0;
        channel.writeAndFlush(template.request(exchange, true, channel.alloc()), channel.voidPromise());
    }

    /** The request in flight on this connection, if any. */
    DriverHttp.@Nullable Exchange current() {
        return current;
    }

    /** Gives up on the request in flight (its answer is late) and closes the connection; the caller fails it. */
    void abandon() {
        current = null;
        channel.close();
    }

    void close() {
        channel.close();
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
                DriverHttp.Exchange exchange = current;
                current = null;
                if (exchange != null && status != 0) {
                    pool.answered(this, exchange, status, retryAfter, keepAlive);
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
        alarms.refresh();
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
        pool.closed(this);
        dropped();
    }

    /** Closed before the whole answer: the request may not even have been read. */
    private void dropped() {
        DriverHttp.Exchange exchange = current;
        current = null;
        if (exchange != null) {
            Throwable cause = failure != null ? failure : new ClosedChannelException();
            pool.fail(exchange, cause instanceof IOException && !(cause instanceof ConnectException)
                    ? DriverHttp.Failure.DROPPED : DriverHttp.Failure.OTHER, cause);
        }
        alarms.refresh();
    }
}
