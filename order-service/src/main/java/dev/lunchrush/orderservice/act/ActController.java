package dev.lunchrush.orderservice.act;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.unit.DataSize;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

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

    ActController(CurrentAct currentAct, BlockingWork blocking) {
        this.currentAct = currentAct;
        this.blocking = blocking;
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
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ActState.class),
                    examples = @ExampleObject(name = "act", value = "{\"act\": \"shared-queue\"}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "The act now", content = @Content(
                        mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ActState.class))),
                @ApiResponse(responseCode = "400", description = "An unknown act, strategy or field, or a capacity below 1. Type " + ProblemType.BASE + "invalid-input",
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

    static ActState parse(JsonNode body) {
        List<FieldProblem> errors = new ArrayList<>();
        if (!body.isObject()) {
            throw ProblemException.invalid("Invalid act", List.of(new FieldProblem("", "must be a JSON object")));
        }
        for (String name : body.propertyNames()) {
            if (!FIELDS.contains(name)) {
                errors.add(new FieldProblem(name, "unknown field; allowed are act, strategy, capacity"));
            }
        }
        Act act = null;
        JsonNode actNode = body.get("act");
        if (actNode == null || actNode.isNull()) {
            errors.add(new FieldProblem("act", "is required; acts are " + Act.ids()));
        }
        else if (!actNode.isString()) {
            errors.add(new FieldProblem("act", "must be a string; acts are " + Act.ids()));
        }
        else {
            try {
                act = Act.fromId(actNode.stringValue());
            }
            catch (IllegalArgumentException ex) {
                errors.add(new FieldProblem("act", ex.getMessage()));
            }
        }
        FeedStrategy strategy = FeedStrategy.UNBOUNDED;
        JsonNode strategyNode = body.get("strategy");
        if (strategyNode != null && !strategyNode.isNull()) {
            if (!strategyNode.isString()) {
                errors.add(new FieldProblem("strategy", "must be a string; strategies are " + FeedStrategy.ids()));
            }
            else {
                try {
                    strategy = FeedStrategy.fromId(strategyNode.stringValue());
                }
                catch (IllegalArgumentException ex) {
                    errors.add(new FieldProblem("strategy", ex.getMessage()));
                }
            }
        }
        int capacity = ActState.DEFAULT_CAPACITY;
        JsonNode capacityNode = body.get("capacity");
        if (capacityNode != null && !capacityNode.isNull()) {
            if (!capacityNode.isIntegralNumber() || !capacityNode.canConvertToInt()) {
                errors.add(new FieldProblem("capacity", "must be a whole number of events, was " + capacityNode));
            }
            else if (capacityNode.intValue() <= 0) {
                errors.add(new FieldProblem("capacity", "must be at least 1, was " + capacityNode.intValue()));
            }
            else {
                capacity = capacityNode.intValue();
            }
        }
        if (!errors.isEmpty() || act == null) {
            throw ProblemException.invalid("Invalid act", errors);
        }
        return new ActState(act, strategy, capacity);
    }
}
