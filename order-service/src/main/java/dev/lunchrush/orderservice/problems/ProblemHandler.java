package dev.lunchrush.orderservice.problems;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.reactive.result.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.server.MissingRequestValueException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.support.server.ClosedConnections;

/**
 * Every error of this service as {@code application/problem+json} with a {@code type}: Spring WebFlux's own (404,
 * 405, 415, …) through {@link ResponseEntityExceptionHandler}, typed by their status ({@link ProblemType#typed}),
 * ours through {@link ProblemException}, with an {@code errors} array of {@code {field, message}} where a field is
 * to blame. It answers for the handler functions too ({@code POST /orders}' other methods, {@link
 * dev.lunchrush.orderservice.intake.OrderRoutes}): WebFlux hands every handler's error to it.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<ProblemDetail> problem(ProblemException ex) {
        // the instance, the request's path, is Spring WebFlux's to fill in
        ProblemDetail problem = ex.problem(null);
        ResponseEntity.BodyBuilder response = ResponseEntity.status(ex.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        ex.headers().forEach(response::header);
        return response.body(problem);
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleUnsupportedMediaTypeStatusException(UnsupportedMediaTypeStatusException ex,
            HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        ProblemDetail problem = ex.getBody();
        MediaType contentType = exchange.getRequest().getHeaders().getContentType();
        if (problem.getDetail() == null) {
            problem.setDetail("Content-Type " + (contentType == null ? "is missing" : contentType + " is not supported")
                    + "; send application/json");
        }
        problem.setProperty("errors", List.of(ProblemDocuments.contentTypeProblem(contentType)));
        return handleExceptionInternal(ex, problem, headers, status, exchange);
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleMissingRequestValueException(MissingRequestValueException ex,
            HttpHeaders headers, HttpStatusCode status, ServerWebExchange exchange) {
        ProblemDetail problem = ex.getBody();
        problem.setProperty("errors", List.of(new FieldProblem(ex.getName(), ex.getLabel() + " is required")));
        return handleExceptionInternal(ex, problem, headers, status, exchange);
    }

    @Override
    protected Mono<ResponseEntity<Object>> handleExceptionInternal(Exception ex, @Nullable Object body,
            @Nullable HttpHeaders headers, HttpStatusCode statusCode, ServerWebExchange exchange) {
        HttpHeaders problemHeaders = new HttpHeaders();
        if (headers != null) {
            problemHeaders.putAll(headers);
        }
        problemHeaders.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return super.handleExceptionInternal(ex, body, problemHeaders, statusCode, exchange);
    }

    /** Every answer of Spring WebFlux's problems passes here: each gets the type of its status, unless it has one. */
    @Override
    protected Mono<ResponseEntity<Object>> createResponseEntity(@Nullable Object body, HttpHeaders headers,
            HttpStatusCode status, ServerWebExchange exchange) {
        if (body instanceof ProblemDetail problem) {
            ProblemType.typed(problem);
        }
        return super.createResponseEntity(body, headers, status, exchange);
    }

    /**
     * The last resort: a bug of ours is still a problem document, and it is logged. A connection closed under a
     * request (the client gone, or let go by the server's timeouts) is no bug: it is not logged as one, with its
     * stack trace, since a client that closes thousands of connections at once would otherwise have the service
     * build and write thousands of them.
     */
    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException ex) {
        if (ClosedConnections.closedUnderARequest(ex)) {
            log.debug("connection closed under a request: {}", ex.toString());
        }
        else {
            log.error("unexpected error", ex);
        }
        return problem(ProblemDocuments.unexpected());
    }
}
