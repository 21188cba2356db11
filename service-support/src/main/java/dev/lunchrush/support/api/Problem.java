package dev.lunchrush.support.api;

import java.util.List;

import io.swagger.v3.oas.annotations.media.Schema;
import org.jspecify.annotations.Nullable;

/**
 * The shape of an {@code application/problem+json} answer (RFC 9457), for the OpenAPI documents only: the services
 * answer with Spring's {@code ProblemDetail}, whose members these are, plus {@code errors} where a field is to
 * blame.
 *
 * @param type a URI naming the kind of problem, one of {@link dev.lunchrush.support.problems.ProblemType}: a client
 *        tells one kind from another by it, not by the title
 * @param title a short summary of the kind of problem
 * @param status the HTTP status
 * @param detail what went wrong with this request
 * @param instance the path of the request
 * @param field the field at fault, where a reader's answer names one
 * @param errors each field at fault (a JSON path such as {@code items[1].quantity}, or a header) and why
 */
@Schema(name = "Problem", description = "An application/problem+json document (RFC 9457)")
public record Problem(
        @Schema(example = "https://lunchrush.dev/problems/invalid-input") String type,
        @Schema(example = "Bad Request") String title,
        @Schema(example = "400") int status,
        @Schema(example = "items[1].quantity must be between 1 and 50") @Nullable String detail,
        @Schema(example = "/orders") @Nullable String instance,
        @Schema(example = "date") @Nullable String field,
        @Nullable List<FieldError> errors) {

    /**
     * One field at fault.
     *
     * @param field the field: a JSON path into the body, or the name of a header or parameter
     * @param message why it is refused
     */
    @Schema(name = "FieldError")
    public record FieldError(@Schema(example = "items[1].quantity") String field,
            @Schema(example = "must be between 1 and 50, was 0") String message) {
    }
}
