package dev.lunchrush.orderservice.web;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.netty.channel.ChannelException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.unit.DataSize;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/**
 * Reads a request body with a limit. The array grows with the bytes that arrived, never with what
 * {@code Content-Length} promises (a connection that declares 64 KB and sends nothing holds nothing), and
 * the limit is checked on the bytes received, so a chunked body is cut off as surely as a declared one.
 * A body over the limit is read on and dropped up to {@value #DRAIN_FACTOR} times the limit before the
 * 413 (closing with unread bytes would reset the connection before the client reads the answer); a
 * client that sends more than that, or declares it, is answered at once and the connection closed.
 */
public final class RequestBodies {

    static final int DRAIN_FACTOR = 16;

    private RequestBodies() {
    }

    /** The whole body as one array (empty when there is none), or a 413 problem. */
    public static Mono<byte[]> read(ServerHttpRequest request, DataSize limit) {
        return read(request.getBody(), request.getHeaders().getContentLength(), limit.toBytes());
    }

    /**
     * {@code body} as one array, or a 413 problem; {@code declared} is its Content-Length ({@code -1}
     * when none).
     */
    public static Mono<byte[]> read(Flux<DataBuffer> body, long declared, long max) {
        if (declared > DRAIN_FACTOR * max) {
            return Mono.error(tooLarge(max));
        }
        return body.collect(() -> new Growing(max), Growing::add)
                .onErrorMap(RequestBodies::requestTimedOut, ex -> timedOut())
                .flatMap(growing -> growing.over ? Mono.error(tooLarge(max)) : Mono.just(growing.bytes()));
    }

    /**
     * Reads {@code body} and drops it, up to {@value #DRAIN_FACTOR} times {@code max}: what a request
     * refused before its body (415) costs, so that the connection can go on.
     */
    public static Mono<Void> drain(Flux<DataBuffer> body, long max) {
        long[] seen = {0};
        return body.takeWhile(buffer -> {
            seen[0] += buffer.readableByteCount();
            DataBufferUtils.release(buffer);
            return seen[0] <= DRAIN_FACTOR * max;
        }).then();
    }

    /** What has arrived so far; beyond {@code max}, only counted. */
    private static final class Growing {

        private final long max;
        private byte[] bytes = new byte[0];
        private int length;
        private long seen;
        boolean over;

        Growing(long max) {
            this.max = max;
        }

        void add(DataBuffer buffer) {
            try {
                int readable = buffer.readableByteCount();
                seen += readable;
                if (seen > DRAIN_FACTOR * max) {
                    throw tooLarge(max);
                }
                if (seen > max) {
                    over = true;
                    bytes = new byte[0];
                    return;
                }
                if (length + readable > bytes.length) {
                    // the first part exactly (an order usually comes in one), then doubling
                    int room = length == 0 ? readable : Math.max(length + readable, bytes.length * 2);
                    bytes = Arrays.copyOf(bytes, (int) Math.min(max, room));
                }
                buffer.read(bytes, length, readable);
                length += readable;
            }
            finally {
                DataBufferUtils.release(buffer);
            }
        }

        byte[] bytes() {
            return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
        }
    }

    /**
     * Reactor Netty's request timeout ({@code lunchrush.server.request-timeout}): its exception's class is not public,
     * so it is known by its name.
     */
    static boolean requestTimedOut(Throwable failure) {
        return failure instanceof ChannelException && failure.getClass().getSimpleName().equals("RequestTimeoutException");
    }

    /**
     * 408: the whole body did not come within the server's request timeout ({@code lunchrush.server.request-timeout});
     * the server closes the connection right after this answer.
     */
    public static ProblemException timedOut() {
        return new ProblemException(ProblemType.REQUEST_TIMEOUT, "Request Timeout",
                "the body did not come in time (lunchrush.server.request-timeout)",
                List.of(new FieldProblem("", "the body stopped coming")), Map.of("Connection", "close"));
    }

    public static ProblemException tooLarge(long max) {
        return new ProblemException(ProblemType.BODY_TOO_LARGE, "Request body too large",
                "the body is larger than " + max + " bytes", List.of(new FieldProblem("", "at most " + max + " bytes")),
                Map.of("Connection", "close"));
    }
}
