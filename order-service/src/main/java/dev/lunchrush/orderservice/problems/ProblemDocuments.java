package dev.lunchrush.orderservice.problems;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;

/**
 * A problem as the bytes of its {@code application/problem+json} document, for answers written outside
 * the annotated controllers (the order intake's handler function), with the members and in the order that
 * {@link ProblemHandler}'s answers have: {@code detail}, {@code instance}, {@code status}, {@code title},
 * then {@code errors} where a field is to blame.
 */
@Component
public class ProblemDocuments {

    private final JsonMapper json;

    ProblemDocuments(JsonMapper json) {
        this.json = json;
    }

    public byte[] json(ProblemException problem, String instance) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("detail", problem.detail());
        document.put("instance", instance);
        document.put("status", problem.status().value());
        document.put("title", problem.title());
        if (!problem.errors().isEmpty()) {
            document.put("errors", problem.errors());
        }
        return json.writeValueAsBytes(document);
    }

    /** 415 for a body that is not {@code application/json}; {@code contentType} null when none was given. */
    public static ProblemException unsupportedMediaType(@Nullable String contentType) {
        return new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported Media Type",
                contentType == null ? "Content-Type is missing; send application/json"
                        : "Content-Type '" + contentType + "' is not supported.",
                List.of(contentTypeProblem(contentType)), Map.of("Accept", MediaType.APPLICATION_JSON_VALUE));
    }

    static FieldProblem contentTypeProblem(@Nullable Object contentType) {
        return new FieldProblem("Content-Type", "must be application/json, was " + (contentType == null ? "missing" : contentType));
    }

    /** 500: a bug of ours, still a problem document (the caller logs it). */
    public static ProblemException unexpected() {
        return new ProblemException(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
                "the order service failed unexpectedly; see its log");
    }
}
