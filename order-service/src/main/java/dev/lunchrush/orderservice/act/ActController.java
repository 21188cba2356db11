package dev.lunchrush.orderservice.act;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotBlank;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.unit.DataSize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.ActRequest;
import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.web.BlockingWork;
import dev.lunchrush.orderservice.web.JsonBodies;
import dev.lunchrush.orderservice.web.RequestBodies;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/**
 * {@code GET /api/act} for everybody, {@code PUT /admin/act} for the admin: the switch the
 * {@code demo act} command pulls.
 */
@RestController
class ActController {

    private static final Set<String> FIELDS = Set.of("act", "strategy", "capacity");
    private static final DataSize MAX_BODY = DataSize.ofKilobytes(4);

    private final CurrentAct currentAct;
    private final BlockingWork blocking;
    private final Validator validator;

    ActController(CurrentAct currentAct, BlockingWork blocking, Validator validator) {
        this.currentAct = currentAct;
        this.blocking = blocking;
        this.validator = validator;
    }

    @Operation(summary = "The current act, and the feed's strategy and capacity")
    @ApiResponse(responseCode = "200", description = "The act")
    @GetMapping(path = "/api/act", produces = MediaType.APPLICATION_JSON_VALUE)
    ActState act() {
        return currentAct.get();
    }

    @Operation(summary = "Switch the act (kept across restarts)",
            description = "strategy and capacity are the feed's (act memory-feed); a switch into memory-feed with unbounded "
                    + "collects the heap once, so that the feed's budget is measured from what is alive",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ActRequest.class),
                    examples = @ExampleObject(name = "act", value = "{\"act\": \"shared-queue\"}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "The act now", content = @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ActState.class))),
                @ApiResponse(responseCode = "400", description = "An unknown act, strategy or field, or a capacity below 1, each named in errors[].field. Type " + ProblemType.BASE + "invalid-input",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "413", description = "Body over 4 KB. Type " + ProblemType.BASE + "body-too-large", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "415", description = "Content-Type is not application/json. Type " + ProblemType.BASE + "unsupported-media-type", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PutMapping(path = "/admin/act", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ActState> change(ServerHttpRequest request) {
        return RequestBodies.read(request, MAX_BODY)
                .map(body -> parse(JsonBodies.readTree(body, "Invalid act")))
                // the act is written to its file before the answer: not on an event loop
                .flatMap(next -> Mono.fromFuture(blocking.supply(() -> currentAct.change(next))));
    }

    /**
     * The act a body asks for, or 400 naming every field that is wrong: the JSON's shape here (an object, no unknown
     * field, each field of its JSON type), because binding stops at the first such error; then the constraints
     * declared on {@link ActRequest} (Bean Validation), one message a field.
     */
    ActState parse(JsonNode body) {
        if (!body.isObject()) {
            throw ProblemException.invalid("Invalid act", List.of(new FieldProblem("", "must be a JSON object")));
        }
        List<FieldProblem> errors = new ArrayList<>();
        for (String name : body.propertyNames()) {
            if (!FIELDS.contains(name)) {
                errors.add(new FieldProblem(name, "unknown field; allowed are act, strategy, capacity"));
            }
        }
        Set<String> wrong = new HashSet<>();
        ActRequest request = new ActRequest(text(body, "act", errors, wrong), text(body, "strategy", errors, wrong),
                capacity(body, errors, wrong));
        Map<String, ConstraintViolation<ActRequest>> violations = new TreeMap<>();
        for (ConstraintViolation<ActRequest> violation : validator.validate(request)) {
            // one message a field: "required" before any other of the same field
            violations.merge(violation.getPropertyPath().toString(), violation,
                    (one, other) -> other.getConstraintDescriptor().getAnnotation() instanceof NotBlank ? other : one);
        }
        violations.forEach((field, violation) -> {
            if (!wrong.contains(field)) {
                errors.add(new FieldProblem(field, violation.getMessage()));
            }
        });
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("Invalid act", errors);
        }
        // the constraints hold: the act is one, and so is the strategy where given
        return new ActState(Act.fromId(Objects.requireNonNull(request.act())),
                request.strategy() == null ? FeedStrategy.UNBOUNDED : FeedStrategy.fromId(request.strategy()),
                request.capacity() == null ? ActState.DEFAULT_CAPACITY : request.capacity());
    }

    /** A text field's value; {@code null} when it is missing or null (Bean Validation judges that), or not a string. */
    private static @Nullable String text(JsonNode body, String field, List<FieldProblem> errors, Set<String> wrong) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            wrong.add(field);
            errors.add(new FieldProblem(field, "must be a string, was " + value));
            return null;
        }
        return value.stringValue();
    }

    /** The capacity where it is a whole number an {@code int} holds; its bounds are Bean Validation's to judge. */
    private static @Nullable Integer capacity(JsonNode body, List<FieldProblem> errors, Set<String> wrong) {
        JsonNode value = body.get("capacity");
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            wrong.add("capacity");
            errors.add(new FieldProblem("capacity", "must be a whole number of events, was " + value));
            return null;
        }
        return value.intValue();
    }
}
