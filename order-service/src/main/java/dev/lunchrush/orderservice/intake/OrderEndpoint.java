package dev.lunchrush.orderservice.intake;

import java.util.concurrent.CompletableFuture;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.problems.ProblemDocuments;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.web.EventLoops;
import dev.lunchrush.orderservice.web.RequestBodies;
import dev.lunchrush.support.server.ClosedConnections;
import dev.lunchrush.support.tracing.OrderTraces;

/**
 * {@code POST /orders} as a WebFlux handler function ({@link OrderRoutes}): the Content-Type checked before
 * any body byte is read (415), the body read as it arrives up to {@code lunchrush.max-order-body} (413), then
 * {@link OrderPlacement} parses, honours the Idempotency-Key and writes the order. Every refusal is an
 * {@code application/problem+json} document written here, as {@code ProblemHandler} writes those of the
 * annotated controllers: a functional endpoint's errors would otherwise reach Spring Boot's error handler.
 *
 * <p>Each order is a span of its trace ({@code place order}), started when its body has come and ended with its
 * answer; a sampled one's context goes with the order to the act's output ({@link OrderTraces}).
 *
 * <p>A handler function rather than a {@code @PostMapping}: no argument resolvers and no return value
 * handler per order (BENCHMARKS.md, "The order's path in the framework").
 */
@Component
class OrderEndpoint {

    private static final Logger log = LoggerFactory.getLogger(OrderEndpoint.class);

    static final String PATH = "/orders";
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    private final OrderPlacement placement;
    private final ProblemDocuments problems;
    private final long maxBody;
    private final Tracer tracer;

    OrderEndpoint(OrderPlacement placement, ProblemDocuments problems, OrderServiceProperties properties,
            OrderTraces traces) {
        this.placement = placement;
        this.problems = problems;
        this.maxBody = properties.maxOrderBody().toBytes();
        this.tracer = traces.tracer();
    }

    Mono<ServerResponse> place(ServerRequest request) {
        HttpHeaders headers = request.headers().asHttpHeaders();
        String contentType = headers.getFirst(HttpHeaders.CONTENT_TYPE);
        if (!isJson(contentType)) {
            return refuseBeforeTheBody(request, ProblemDocuments.unsupportedMediaType(contentType));
        }
        String idempotencyKey = headers.getFirst(IDEMPOTENCY_KEY);
        return RequestBodies.read(request.bodyToFlux(DataBuffer.class), headers.getContentLength(), maxBody)
                // a client that goes away cancels this stage only, never the order's own: the order is written or
                // refused on its own, and its outcome kept under its Idempotency-Key for the retry (IdempotencyStore)
                .flatMap(body -> Mono.fromFuture(place(body, idempotencyKey)))
                .flatMap(OrderEndpoint::response)
                .onErrorResume(this::problem);
    }

    private CompletableFuture<StoredResponse> place(byte[] body, @Nullable String idempotencyKey) {
        Span span = tracer.nextSpan();
        if (span.isNoop()) {
            // not sampled: nothing in scope, so nothing the order causes is traced either (no headers, no spans)
            return placeUntraced(body, idempotencyKey);
        }
        span.name("place order").start();
        CompletableFuture<StoredResponse> answer;
        try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
            answer = placeUntraced(body, idempotencyKey);
        }
        return answer.whenComplete((stored, failure) -> {
            if (failure != null) {
                span.error(ProblemException.unwrap(failure));
            }
            else {
                span.tag("http.status_code", String.valueOf(stored.status()));
            }
            span.end();
        });
    }

    private CompletableFuture<StoredResponse> placeUntraced(byte[] body, @Nullable String idempotencyKey) {
        try {
            return placement.place(body, idempotencyKey, EventLoops.current());
        }
        catch (RuntimeException ex) {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * A refusal known from the headers: the body is read and dropped first (up to a bound), so that a kept-alive
     * connection goes on with the next request; a client waiting for {@code 100 Continue} sends none.
     */
    private Mono<ServerResponse> refuseBeforeTheBody(ServerRequest request, ProblemException problem) {
        if (request.headers().firstHeader(HttpHeaders.EXPECT) != null) {
            return problem(problem);
        }
        return RequestBodies.drain(request.bodyToFlux(DataBuffer.class), maxBody).then(problem(problem));
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

    private static Mono<ServerResponse> response(StoredResponse answer) {
        ServerResponse.BodyBuilder response = ServerResponse.status(answer.status()).contentType(MediaType.APPLICATION_JSON);
        if (answer.location() != null) {
            response.header(HttpHeaders.LOCATION, answer.location());
        }
        if (answer.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.bodyValue(answer.body());
    }

    private Mono<ServerResponse> problem(Throwable failure) {
        Throwable cause = ProblemException.unwrap(failure);
        if (cause instanceof AbortedException) {
            // the client closed the connection under its request: nobody to answer, nothing of ours failed. Ended
            // here, the error does not travel on through the framework's checkpoints (each writes its stack trace
            // into it) to be kept in the exchange: Reactor Netty keeps a request closed under way until its request
            // timeout, and 4,000 clients closing at once kept 4,000 of those errors (hostile-clients)
            return Mono.empty();
        }
        if (ClosedConnections.closedUnderARequest(cause)) {
            // the server let the connection go (a timeout): nobody to answer, nothing of ours failed
            return Mono.error(cause);
        }
        ProblemException problem;
        if (cause instanceof ProblemException known) {
            problem = known;
        }
        else {
            log.error("unexpected error", cause);
            problem = ProblemDocuments.unexpected();
        }
        ServerResponse.BodyBuilder response = ServerResponse.status(problem.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        problem.headers().forEach(response::header);
        return response.bodyValue(problems.json(problem, PATH));
    }
}
