package dev.lunchrush.orderservice.problems;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of this service as {@code application/problem+json}: Spring MVC's own (405, 415, …)
 * through {@link ResponseEntityExceptionHandler}, ours through {@link ProblemException}, with an
 * {@code errors} array of {@code {field, message}} where a field is to blame.
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);

    @ExceptionHandler(ProblemException.class)
    ResponseEntity<ProblemDetail> problem(ProblemException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(ex.status(), ex.detail());
        problem.setTitle(ex.title());
        if (!ex.errors().isEmpty()) {
            problem.setProperty("errors", ex.errors());
        }
        ResponseEntity.BodyBuilder response = ResponseEntity.status(ex.status())
                .contentType(MediaType.APPLICATION_PROBLEM_JSON);
        ex.headers().forEach(response::header);
        return response.body(problem);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = ex.getBody();
        problem.setProperty("errors", List.of(new FieldProblem("Content-Type",
                "must be application/json, was " + (ex.getContentType() == null ? "missing" : ex.getContentType()))));
        return handleExceptionInternal(ex, problem, headers, status, request);
    }

    @Override
    protected @Nullable ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body,
            HttpHeaders headers, HttpStatusCode statusCode, WebRequest request) {
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        return super.handleExceptionInternal(ex, body, headers, statusCode, request);
    }

    @ExceptionHandler(MissingRequestHeaderException.class)
    ResponseEntity<ProblemDetail> missingHeader(MissingRequestHeaderException ex) {
        return problem(ProblemException.invalid("Invalid request",
                List.of(new FieldProblem(ex.getHeaderName(), "header is required"))));
    }

    /** The last resort: a bug of ours is still a problem document, and it is logged. */
    @ExceptionHandler(RuntimeException.class)
    ResponseEntity<ProblemDetail> unexpected(RuntimeException ex) {
        log.error("unexpected error", ex);
        return problem(new ProblemException(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
                "the order service failed unexpectedly; see its log"));
    }
}
