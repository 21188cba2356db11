package dev.lunchrush.orderservice.problems;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/**
 * A problem as the bytes of its {@code application/problem+json} document, for answers written outside
 * the annotated controllers (the order intake's handler function, the feed's security, the firewall's
 * refusals): the same {@code ProblemDetail} as {@link ProblemHandler}'s answers ({@link ProblemException#problem}),
 * written by the same JSON mapper, so with the same members: {@code type}, {@code title}, {@code status},
 * {@code detail}, {@code instance}, and {@code errors} where a field is to blame.
 */
@Component
public class ProblemDocuments {

    private final JsonMapper json;

    ProblemDocuments(JsonMapper json) {
        this.json = json;
    }

    public byte[] json(ProblemException problem, String instance) {
        return json.writeValueAsBytes(problem.problem(instance));
    }

    /** 415 for a body that is not {@code application/json}; {@code contentType} null when none was given. */
    public static ProblemException unsupportedMediaType(@Nullable String contentType) {
        return new ProblemException(ProblemType.UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type",
                contentType == null ? "Content-Type is missing; send application/json"
                        : "Content-Type '" + contentType + "' is not supported.",
                List.of(contentTypeProblem(contentType)), Map.of("Accept", MediaType.APPLICATION_JSON_VALUE));
    }

    static FieldProblem contentTypeProblem(@Nullable Object contentType) {
        return new FieldProblem("Content-Type", "must be application/json, was " + (contentType == null ? "missing" : contentType));
    }

    /**
     * 503 to a request whose Idempotency-Key's first request is still under way: not "not accepted", since the first
     * may yet be written, nor "outcome unknown", since no broker was asked for this one; a retry later under the
     * same key gets the first one's answer. Its title is the one it always had.
     */
    public static ProblemException stillRunning() {
        return new ProblemException(ProblemType.STILL_RUNNING, "Order not accepted",
                "the first request with this Idempotency-Key is still running");
    }

    /** 500: a bug of ours, still a problem document (the caller logs it). */
    public static ProblemException unexpected() {
        return new ProblemException(ProblemType.INTERNAL_ERROR, "Internal error",
                "the order service failed unexpectedly; see its log");
    }
}
