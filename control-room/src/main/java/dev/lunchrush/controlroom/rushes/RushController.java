package dev.lunchrush.controlroom.rushes;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.net.URI;
import java.util.List;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.load.rush.Rush;
import dev.lunchrush.load.rush.RushOptions;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/**
 * {@code POST /api/rushes} (admin) starts a rush with {@code ./demo rush}'s options as JSON ({@code 202}, its
 * {@code Location}); {@code GET /api/rushes/{id}} its state, rows and, at the end, the JSON of {@code --json} and the
 * closing table; {@code DELETE /api/rushes/{id}} (admin) stops it; {@code GET /api/rushes} the ones kept.
 */
@RestController
class RushController {

    private final Rushes rushes;
    private final JsonMapper json;

    RushController(Rushes rushes, JsonMapper json) {
        this.rushes = rushes;
        this.json = json;
    }

    @Operation(summary = "Start a rush with ./demo rush's options (the same names as its flags)", security = @SecurityRequirement(name = ApiDocumentation.ADMIN),
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(implementation = RushRequest.class), examples = @ExampleObject(name = "50 orders a second for 2 s", value = "{\"rate\": 50, \"duration\": \"2s\"}"))),
            responses = {
                @ApiResponse(responseCode = "202", description = "Started; follow it at Location (the same view as GET /api/rushes/{id})"),
                @ApiResponse(responseCode = "400", description = "Options that cannot be, each named in errors[].field (beyond its bounds, of the wrong type, unknown), or options that cannot go together, the first to blame named", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "401", description = "No credentials, or not the admin's"), @ApiResponse(responseCode = "403", description = "A viewer's credentials: watching only"),
                @ApiResponse(responseCode = "409", description = "Another rush is running (this one's or the demo command's)", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PostMapping("/api/rushes")
    ResponseEntity<ObjectNode> start(@Valid @RequestBody RushRequest body) {
        RushRun run = rushes.start(settings(body), asked(body));
        return ResponseEntity.accepted().location(URI.create("/api/rushes/" + run.id())).body(run.view(json));
    }

    @Operation(summary = "The rushes kept since the control room started", responses = {
            @ApiResponse(responseCode = "200", description = "Their summaries")})
    @GetMapping("/api/rushes")
    List<RushSummary> list() {
        return rushes.summaries();
    }

    @Operation(summary = "A rush: its state (running, done, failed, stopped), its rows so far and, when it ended, the closing table", responses = {
            @ApiResponse(responseCode = "200", description = "The rush, as ./demo rush --json writes it"),
            @ApiResponse(responseCode = "404", description = "No such rush here", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/api/rushes/{id}")
    ObjectNode rush(@Parameter(example = "r-0") @PathVariable String id) {
        return find(id).view(json);
    }

    /** Stops a running rush ({@code 202}: it reports within a second or two, then says {@code stopped}); an ended one is left as it is. */
    @Operation(summary = "Stop a running rush", security = @SecurityRequirement(name = ApiDocumentation.ADMIN), responses = {
            @ApiResponse(responseCode = "200", description = "It had ended: left as it was"),
            @ApiResponse(responseCode = "202", description = "Stopping: it reports within a second or two, then says stopped"),
            @ApiResponse(responseCode = "401", description = "No credentials, or not the admin's"), @ApiResponse(responseCode = "403", description = "A viewer's credentials: watching only"),
            @ApiResponse(responseCode = "404", description = "No such rush here", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @DeleteMapping("/api/rushes/{id}")
    ResponseEntity<ObjectNode> stop(@Parameter(example = "r-0") @PathVariable String id) {
        RushRun run = find(id);
        if (!run.running()) {
            return ResponseEntity.ok(run.view(json));
        }
        run.stop();
        return ResponseEntity.accepted().body(run.view(json));
    }

    /** The rush the body asks for, checked as the command line checks its flags; 400 naming the option otherwise. */
    private static Rush.Settings settings(RushRequest body) {
        try {
            return body.options().settings(RushOptions.Naming.FIELDS, null);
        }
        catch (RushOptions.Invalid ex) {
            throw ProblemException.invalid("Bad request", List.of(new FieldProblem(ex.field(), ex.getMessage())));
        }
    }

    /** The options given, as the rush's view shows them: those of the body that are not null. */
    private ObjectNode asked(RushRequest body) {
        ObjectNode given = json.createObjectNode();
        json.valueToTree(body).properties().forEach(option -> {
            if (!option.getValue().isNull()) {
                given.set(option.getKey(), option.getValue());
            }
        });
        return given;
    }

    private RushRun find(String id) {
        return rushes.find(id).orElseThrow(() -> new ProblemException(ProblemType.NOT_FOUND, "No such rush",
                "no rush " + id + " here (the control room keeps its last rushes until it restarts)", List.of()));
    }
}
