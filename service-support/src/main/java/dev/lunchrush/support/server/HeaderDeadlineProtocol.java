package dev.lunchrush.support.server;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.apache.coyote.Adapter;
import org.apache.coyote.Processor;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.coyote.http11.Http11Processor;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's HTTP/1.1 connector with a deadline on a request's line and headers: they must be whole within
 * {@link #setHeaderTimeoutMillis header-timeout} of their first byte, else the connection is closed. Tomcat's own
 * timeouts bound only the time between two bytes (the connection timeout), which each byte of a trickled header
 * starts again. Public with a constructor of no arguments: Tomcat makes its protocol from the class's name.
 */
public class HeaderDeadlineProtocol extends Http11NioProtocol {

    private volatile long headerTimeoutMillis = -1;

    /** At most this long from a request's first byte to the end of its headers; not positive: no deadline. */
    public void setHeaderTimeoutMillis(long headerTimeoutMillis) {
        this.headerTimeoutMillis = headerTimeoutMillis;
    }

    @Override
    protected Processor createProcessor() {
        long timeout = headerTimeoutMillis;
        return timeout > 0 ? new Deadline(this, getAdapter(), timeout) : super.createProcessor();
    }

    /**
     * Tomcat's processor, which returns {@code LONG} while a request's line or headers are not whole (Tomcat then
     * keeps it for the connection and waits for more bytes, up to the read timeout): then the read timeout is cut to
     * what is left of the deadline, and a read after the deadline closes the connection. The read timeout is
     * Tomcat's own again before more of the request is read, so a body's bytes get the whole connection timeout.
     */
    private static final class Deadline extends Http11Processor {

        private final HeaderDeadlineProtocol protocol;
        private final long headerTimeoutMillis;

        Deadline(HeaderDeadlineProtocol protocol, Adapter adapter, long headerTimeoutMillis) {
            super(protocol, adapter);
            this.protocol = protocol;
            this.headerTimeoutMillis = headerTimeoutMillis;
        }

        @Override
        public SocketState service(SocketWrapperBase<?> socket) throws IOException {
            if (request.getStartTimeNanos() >= 0) {
                // a request begun in an earlier read: Tomcat set the connection timeout at its first byte
                socket.setReadTimeout(protocol.getConnectionTimeout());
            }
            SocketState state = super.service(socket);
            if (state != SocketState.LONG || isAsync() || request.getStartTimeNanos() < 0) {
                return state;
            }
            long leftMillis = headerTimeoutMillis
                    - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - request.getStartTimeNanos());
            if (leftMillis <= 0) {
                return SocketState.CLOSED;
            }
            if (socket.getReadTimeout() <= 0 || leftMillis < socket.getReadTimeout()) {
                socket.setReadTimeout(leftMillis);
            }
            return state;
        }
    }
}
