package dev.lunchrush.orderservice.web;

import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.unit.DataSize;

import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * Reads a request body with a limit. The limit is checked on the bytes actually received, so a chunked
 * body (no Content-Length) is cut off as surely as a declared one; nothing past the limit is kept.
 */
public final class RequestBodies {

    private RequestBodies() {
    }

    /** The whole body as one array (empty when there is none), or a 413 problem. */
    public static Mono<byte[]> read(ServerHttpRequest request, DataSize limit) {
        long max = limit.toBytes();
        long declared = request.getHeaders().getContentLength();
        if (declared > max) {
            return Mono.error(tooLarge(max));
        }
        return DataBufferUtils.join(request.getBody(), (int) Math.min(max, Integer.MAX_VALUE))
                .map(RequestBodies::bytes)
                .onErrorMap(DataBufferLimitException.class, ex -> tooLarge(max))
                .defaultIfEmpty(new byte[0]);
    }

    private static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        }
        finally {
            DataBufferUtils.release(buffer);
        }
    }

    public static ProblemException tooLarge(long max) {
        return new ProblemException(HttpStatus.CONTENT_TOO_LARGE, "Request body too large",
                "the body is larger than " + max + " bytes", List.of(new FieldProblem("", "at most " + max + " bytes")),
                Map.of("Connection", "close"));
    }
}
