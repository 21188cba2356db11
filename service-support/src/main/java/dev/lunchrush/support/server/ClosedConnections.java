package dev.lunchrush.support.server;

import io.netty.channel.ChannelException;
import reactor.netty.channel.AbortedException;

/** Reactor Netty's errors of a connection closed under a request, told apart from failures of the service's own. */
public final class ClosedConnections {

    private ClosedConnections() {
    }

    /**
     * Whether the failure is the connection closed under a request: the client gone ({@code AbortedException}), or
     * the connection let go by Netty ({@code ChannelException}: Reactor Netty's request timeout, which answered 408
     * itself, is of this kind). Nobody is left to answer and nothing of the service's failed.
     */
    public static boolean closedUnderARequest(Throwable failure) {
        return failure instanceof AbortedException || failure instanceof ChannelException;
    }
}
