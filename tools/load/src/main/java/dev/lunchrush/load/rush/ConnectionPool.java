package dev.lunchrush.load.rush;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.jspecify.annotations.Nullable;

/**
 * Requests to one URI, and their connections: at most {@code maxConnections} keep-alive ones, opened when a request
 * finds none free and reused last-in first-out, so that a steady rate keeps using the same few. A request for which
 * no connection is free waits in line for one; that wait counts in its latency and in its timeout. One timeout per
 * request, from {@link #send} to its whole answer: a sweep every tenth of it (10 to 100 ms) while requests are out
 * fails what waited longer, and closes the connection of an answer that is late. Every method but {@link #connect}
 * runs on the event loop.
 */
final class ConnectionPool {

    private final EventLoop loop;
    private final Alarms alarms;
    private final Duration requestTimeout;
    private final int maxConnections;
    private final RequestTemplate template;
    private final Bootstrap bootstrap;
    private final ArrayDeque<Connection> idle = new ArrayDeque<>();
    private final List<Connection> open = new ArrayList<>();
    private final ArrayDeque<DriverHttp.Exchange> waiting = new ArrayDeque<>();
    private int connecting;
    private int inFlight;
    private boolean sweeping;
    /** The sweep's timer, a whole number of milliseconds away like the driver's (see {@link Alarms}). */
    private Alarms.@Nullable Alarm sweeper;
    private volatile boolean primed;
    private final Runnable sweep = this::sweep;

    ConnectionPool(EventLoop loop, Alarms alarms, InetSocketAddress address, RequestTemplate template,
            Duration requestTimeout, int maxConnections) {
        this.loop = loop;
        this.alarms = alarms;
        this.template = template;
        this.requestTimeout = requestTimeout;
        this.maxConnections = maxConnections;
        this.bootstrap = new Bootstrap().group(loop)
                .channel(NioSocketChannel.class)
                .remoteAddress(address)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(requestTimeout.toMillis(), 3_000))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(template.codec(),
                                new Connection(ConnectionPool.this, template, alarms));
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
            template.prime();
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
        catch (ExecutionException | TimeoutException ex) {
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

    /** Sends the request now if a connection is free, else when one is (opening one, below the most). */
    void send(DriverHttp.Exchange exchange) {
        exchange.handedNanos = System.nanoTime();
        inFlight++;
        if (!sweeping) {
            sweeping = true;
            if (sweeper == null) {
                sweeper = alarms.alarm(sweep);
            }
            sweeper.set(exchange.handedNanos + sweepNanos());
        }
        Connection connection;
        while ((connection = idle.pollLast()) != null) {
            if (connection.isActive()) {
                connection.write(exchange);
                return;
            }
        }
        waiting.addLast(exchange);
        openIfWanted();
    }

    /** A connection more when requests wait for one that no connection being opened will take, below the most. */
    private void openIfWanted() {
        if (!waiting.isEmpty() && open.size() + connecting < maxConnections && connecting < waiting.size()) {
            connecting++;
            bootstrap.connect().addListener((ChannelFutureListener) this::opened);
        }
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
            DriverHttp.Exchange first = waiting.pollFirst();
            if (first != null) {
                Throwable cause = connected.cause() != null ? connected.cause() : new ConnectException("not connected");
                boolean timedOut = cause instanceof ConnectTimeoutException;
                fail(first, timedOut ? DriverHttp.Failure.TIMEOUT : DriverHttp.Failure.OTHER, cause);
            }
            openIfWanted();
        }
        alarms.refresh();
    }

    /** A connection with nothing to do: the next request waiting, or back to the idle ones. */
    private void free(Connection connection) {
        if (!connection.isActive()) {
            return;
        }
        DriverHttp.Exchange next = waiting.pollFirst();
        if (next != null) {
            connection.write(next);
        }
        else {
            idle.addLast(connection);
        }
    }

    /** The connection's request was answered; it is free again if it may be kept alive, else closed. */
    void answered(Connection connection, DriverHttp.Exchange exchange, int status, @Nullable String retryAfter,
            boolean keepAlive) {
        inFlight--;
        if (keepAlive) {
            free(connection);
        }
        else {
            connection.close();
        }
        exchange.answered(status, retryAfter);
    }

    void fail(DriverHttp.Exchange exchange, DriverHttp.Failure kind, Throwable cause) {
        inFlight--;
        exchange.failed(kind, cause);
    }

    /** The connection closed: forgotten, and replaced if requests wait. */
    void closed(Connection connection) {
        open.remove(connection);
        idle.remove(connection);
        openIfWanted();
    }

    private long sweepNanos() {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(10, Math.min(100, requestTimeout.toMillis() / 10)));
    }

    /** Fails what has waited longer than the request timeout; a connection whose answer is late is closed. */
    private void sweep() {
        long now = System.nanoTime();
        long timeout = requestTimeout.toNanos();
        DriverHttp.Exchange first;
        while ((first = waiting.peekFirst()) != null && now - first.handedNanos >= timeout) {
            waiting.pollFirst();
            fail(first, DriverHttp.Failure.TIMEOUT, new HttpTimeoutException("no connection in " + requestTimeout));
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            Connection connection = open.get(i);
            DriverHttp.Exchange current = connection.current();
            if (current != null && now - current.handedNanos >= timeout) {
                connection.abandon();
                fail(current, DriverHttp.Failure.TIMEOUT, new HttpTimeoutException("no answer in " + requestTimeout));
            }
        }
        if (inFlight > 0) {
            sweeper.set(now + sweepNanos());
        }
        else {
            sweeping = false;
        }
        alarms.refresh();
    }
}
