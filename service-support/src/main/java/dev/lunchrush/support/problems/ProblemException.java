package dev.lunchrush.support.problems;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;

/**
 * A request answered with a problem document (RFC 9457): thrown anywhere in a service, rendered once by that
 * service's problem handler with its status, title, detail, the fields to blame ({@code errors}) and any headers.
 * Stack traces are not filled in: these are answers, not bugs, and some come at thousands per second.
 */
public class ProblemException extends RuntimeException {

    private final HttpStatus status;
    private final String title;
    private final List<FieldProblem> errors;
    private final Map<String, String> headers;

    public ProblemException(HttpStatus status, String title, String detail, List<FieldProblem> errors,
            Map<String, String> headers) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.errors = List.copyOf(errors);
        this.headers = Map.copyOf(headers);
    }

    public ProblemException(HttpStatus status, String title, String detail, List<FieldProblem> errors) {
        this(status, title, detail, errors, Map.of());
    }

    public ProblemException(HttpStatus status, String title, String detail) {
        this(status, title, detail, List.of(), Map.of());
    }

    /** 400 with the fields that are wrong; the detail lists them, so that a human sees them too. */
    public static ProblemException invalid(String title, List<FieldProblem> errors) {
        StringBuilder detail = new StringBuilder();
        for (FieldProblem error : errors) {
            if (!detail.isEmpty()) {
                detail.append("; ");
            }
            detail.append(error.field().isEmpty() ? "body" : error.field()).append(": ").append(error.message());
        }
        return new ProblemException(HttpStatus.BAD_REQUEST, title, detail.toString(), errors, Map.of());
    }

    /** The order service's 503: the write path cannot take the order now; nothing was acknowledged. */
    public static ProblemException unavailable(String detail) {
        return new ProblemException(HttpStatus.SERVICE_UNAVAILABLE, "Order not accepted", detail);
    }

    /**
     * What a failed future failed of: the cause of the {@link java.util.concurrent.CompletionException} or
     * {@link java.util.concurrent.ExecutionException} that a stage wraps it in, else the failure itself.
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof java.util.concurrent.CompletionException
                || cause instanceof java.util.concurrent.ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    public String detail() {
        String message = getMessage();
        return message == null ? "" : message;
    }

    public List<FieldProblem> errors() {
        return errors;
    }

    public Map<String, String> headers() {
        return headers;
    }

    @Override
    public @Nullable String getLocalizedMessage() {
        return getMessage();
    }
}
