package dev.lunchrush.support.problems;

import java.net.URI;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * A request answered with a problem document (RFC 9457): thrown anywhere in a service, rendered once by that
 * service's problem handler ({@link #problem}) with its type and status ({@link ProblemType}), title, detail, the
 * fields to blame ({@code errors}) and any headers. Stack traces are not filled in: these are answers, not bugs, and
 * some come at thousands per second.
 */
public class ProblemException extends RuntimeException {

    private final ProblemType type;
    private final String title;
    private final List<FieldProblem> errors;
    private final Map<String, String> headers;

    public ProblemException(ProblemType type, String title, String detail, List<FieldProblem> errors,
            Map<String, String> headers) {
        super(detail, null, false, false);
        this.type = type;
        this.title = title;
        this.errors = List.copyOf(errors);
        this.headers = Map.copyOf(headers);
    }

    public ProblemException(ProblemType type, String title, String detail, List<FieldProblem> errors) {
        this(type, title, detail, errors, Map.of());
    }

    public ProblemException(ProblemType type, String title, String detail) {
        this(type, title, detail, List.of(), Map.of());
    }

    /** A problem with the title of its kind. */
    public ProblemException(ProblemType type, String detail) {
        this(type, type.title(), detail, List.of(), Map.of());
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
        return new ProblemException(ProblemType.INVALID_INPUT, title, detail.toString(), errors, Map.of());
    }

    /** The order service's 503: the write path cannot take the order now; nothing was acknowledged. */
    public static ProblemException unavailable(String detail) {
        return new ProblemException(ProblemType.NOT_ACCEPTED, detail);
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

    public ProblemType type() {
        return type;
    }

    public HttpStatus status() {
        return type.status();
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

    /**
     * The problem document: type, status, title, detail, {@code instance} where given (the request's path), and
     * {@code errors} where a field is to blame.
     */
    public ProblemDetail problem(@Nullable String instance) {
        ProblemDetail problem = type.problem(detail());
        problem.setTitle(title);
        if (instance != null) {
            try {
                problem.setInstance(URI.create(instance));
            }
            catch (IllegalArgumentException ex) {
                // a path that is no URI reference goes without an instance: the answer is the problem, not its path
            }
        }
        if (!errors.isEmpty()) {
            problem.setProperty("errors", errors);
        }
        return problem;
    }

    @Override
    public @Nullable String getLocalizedMessage() {
        return getMessage();
    }
}
