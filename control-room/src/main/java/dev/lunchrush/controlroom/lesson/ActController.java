package dev.lunchrush.controlroom.lesson;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;

import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.lesson.Lessons;
import dev.lunchrush.localstack.access.Endpoints;
import dev.lunchrush.localstack.access.ServiceClient;
import dev.lunchrush.support.SecurityProperties;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/**
 * {@code PUT /api/act} (admin): {@code {"act": "memory-feed", "strategy": "unbounded", "capacity": 20000}}, checked as
 * {@code ./demo act} checks its arguments, then asked of the order service ({@code PUT /admin/act}); its new state.
 */
@RestController
class ActController {

    private static final Set<String> FIELDS = Set.of("act", "strategy", "capacity");

    private final ServiceClient orderService;

    ActController(Endpoints endpoints, SecurityProperties security) {
        this.orderService = new ServiceClient("order-service", endpoints.orderService(), security::adminPassword);
    }

    @Operation(summary = "Switch the act (as ./demo act does)", security = @SecurityRequirement(name = ApiDocumentation.ADMIN),
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(mediaType = "application/json", examples = @ExampleObject(name = "act 3, unbounded", value = "{\"act\": \"memory-feed\", \"strategy\": \"unbounded\", \"capacity\": 20000}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "The order service's new act"),
                @ApiResponse(responseCode = "400", description = "An unknown act or strategy, a capacity that is not a positive whole number, or an unknown field, named in errors[].field", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "401", description = "No credentials, or not the admin's"), @ApiResponse(responseCode = "403", description = "A viewer's credentials: watching only"),
                @ApiResponse(responseCode = "502", description = "The order service did not take it: the detail says why", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PutMapping("/api/act")
    Lesson.ActState switchAct(@RequestBody JsonNode body) {
        Map<String, Object> request = checked(body);
        return LessonPoller.act(orderService.put("/admin/act", request, true));
    }

    /** The order service's request body, or 400 naming every field that is wrong. */
    static Map<String, Object> checked(JsonNode body) {
        List<FieldProblem> errors = new ArrayList<>();
        if (!body.isObject()) {
            throw ProblemException.invalid("Bad request", List.of(new FieldProblem("", "the body must be a JSON object")));
        }
        body.propertyNames().forEach(name -> {
            if (!FIELDS.contains(name)) {
                errors.add(new FieldProblem(name, "unknown field; the fields are act, strategy and capacity"));
            }
        });
        Act act = null;
        JsonNode actNode = body.path("act");
        if (!actNode.isString()) {
            errors.add(new FieldProblem("act", "required: shared-queue, queue-per-reader, memory-feed or log"));
        }
        else {
            try {
                act = Act.fromId(actNode.asString());
            }
            catch (IllegalArgumentException ex) {
                errors.add(new FieldProblem("act", ex.getMessage()));
            }
        }
        Map<String, Object> request = new LinkedHashMap<>();
        if (act != null) {
            request.put("act", act.id());
        }
        JsonNode strategy = body.path("strategy");
        if (!strategy.isMissingNode() && !strategy.isNull()) {
            if (act != null && !Lessons.of(act).keepsAFeed()) {
                errors.add(new FieldProblem("strategy", "for memory-feed only, not " + act.id()));
            }
            else if (!strategy.isString()) {
                errors.add(new FieldProblem("strategy", "unbounded, block, drop or throttle"));
            }
            else {
                try {
                    request.put("strategy", FeedStrategy.fromId(strategy.asString()).id());
                }
                catch (IllegalArgumentException ex) {
                    errors.add(new FieldProblem("strategy", ex.getMessage()));
                }
            }
        }
        JsonNode capacity = body.path("capacity");
        if (!capacity.isMissingNode() && !capacity.isNull()) {
            if (act != null && !Lessons.of(act).keepsAFeed()) {
                errors.add(new FieldProblem("capacity", "for memory-feed only, not " + act.id()));
            }
            else if (!capacity.isIntegralNumber() || capacity.asLong() <= 0 || capacity.asLong() > Integer.MAX_VALUE) {
                errors.add(new FieldProblem("capacity", "must be a positive whole number of events, not " + capacity));
            }
            else {
                request.put("capacity", capacity.asInt());
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("Bad request", errors);
        }
        return request;
    }
}
