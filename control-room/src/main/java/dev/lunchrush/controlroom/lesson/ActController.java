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
import java.util.Objects;

import jakarta.validation.Valid;

import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.ActRequest;
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
 * {@code ./demo act} checks its arguments ({@link ActRequest}), then asked of the order service ({@code PUT /admin/act}); its new state.
 */
@RestController
class ActController {

    private final ServiceClient orderService;

    ActController(Endpoints endpoints, SecurityProperties security) {
        this.orderService = new ServiceClient("order-service", endpoints.orderService(), security::adminPassword);
    }

    @Operation(summary = "Switch the act (as ./demo act does)", security = @SecurityRequirement(name = ApiDocumentation.ADMIN),
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = ActRequest.class), examples = @ExampleObject(name = "act 3, unbounded", value = "{\"act\": \"memory-feed\", \"strategy\": \"unbounded\", \"capacity\": 20000}"))),
            responses = {
                @ApiResponse(responseCode = "200", description = "The order service's new act"),
                @ApiResponse(responseCode = "400", description = "An unknown act or strategy, a capacity that is not a positive whole number, a strategy or capacity with another act than memory-feed, or an unknown field: each named in errors[].field", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "401", description = "No credentials, or not the admin's"), @ApiResponse(responseCode = "403", description = "A viewer's credentials: watching only"),
                @ApiResponse(responseCode = "502", description = "The order service did not take it: the detail says why", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PutMapping("/api/act")
    Lesson.ActState switchAct(@Valid @RequestBody ActRequest body) {
        return LessonPoller.act(orderService.put("/admin/act", checked(body), true));
    }

    /**
     * The order service's request body: the act, and the feed's strategy and capacity where given, which belong to
     * {@code memory-feed} alone (400 naming each one given with another act).
     */
    static Map<String, Object> checked(ActRequest body) {
        // @Valid: the act is one of them
        Act act = Act.fromId(Objects.requireNonNull(body.act()));
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("act", act.id());
        List<FieldProblem> errors = new ArrayList<>();
        if (body.strategy() != null) {
            request.put("strategy", FeedStrategy.fromId(body.strategy()).id());
        }
        if (body.capacity() != null) {
            request.put("capacity", body.capacity());
        }
        if (!Lessons.of(act).keepsAFeed()) {
            for (String field : List.of("strategy", "capacity")) {
                if (request.containsKey(field)) {
                    errors.add(new FieldProblem(field, "for memory-feed only, not " + act.id()));
                }
            }
        }
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("Bad request", errors);
        }
        return request;
    }
}
