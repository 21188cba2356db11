package dev.lunchrush.reportreplayer.replay;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import jakarta.validation.Valid;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.reportreplayer.web.Problems;
import dev.lunchrush.support.PageStreams;
import dev.lunchrush.support.PushedPageStreams;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.server.ServerLimits;

/** Starting replays (admin), following them (anyone), and the page's event stream. */
@RestController
class ReplayController implements ApplicationListener<ContextClosedEvent> {

    private final ReplayService replays;
    private final PushedPageStreams pages;
    private @Nullable List<ReplayStatus> sent;

    ReplayController(ReplayService replays, ServerLimits limits) {
        this.pages = new PushedPageStreams("replay-sse", Duration.ofMillis(500), limits, this::push);
        this.replays = replays;
    }

    @Operation(summary = "Replay a day from the log (seek by timestamp), in the background",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = ReplayRequest.class),
                    examples = @ExampleObject(name = "day", value = "{\"date\": \"2026-11-26\", \"zone\": \"UTC\"}"))),
            responses = {
                @ApiResponse(responseCode = "202", description = "Started; follow it at Location",
                        headers = @Header(name = "Location", description = "/api/replays/{id}", schema = @Schema(type = "string"))),
                @ApiResponse(responseCode = "400", description = "date or zone missing or malformed, or a day in the future: each field at fault in errors[].field", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "409", description = "A replay is running", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "415", description = "Content-Type is not application/json", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "503", description = "The log is unavailable: Kafka down, or the topic not there yet", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PostMapping(path = "/admin/replays", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ReplayStatus> start(@Valid @RequestBody ReplayRequest request) {
        ReplayStatus status = replays.start(request);
        return ResponseEntity.accepted().location(URI.create("/api/replays/" + status.id())).body(status);
    }

    @Operation(summary = "The replays of this run: running and the last finished ones", responses = {
            @ApiResponse(responseCode = "200", description = "The replays")})
    @GetMapping("/api/replays")
    List<ReplayStatus> all() {
        return replays.all();
    }

    @Operation(summary = "One replay: its progress, then its outcome", responses = {
            @ApiResponse(responseCode = "200", description = "The replay"),
            @ApiResponse(responseCode = "404", description = "No such replay", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/api/replays/{id}")
    ReplayStatus one(@Parameter(example = "r-1") @PathVariable String id) {
        return replays.find(id).orElseThrow(() -> Problems.notFound("no replay " + id));
    }

    @Operation(summary = "The page's live updates", responses = {
            @ApiResponse(responseCode = "200", description = "Server-sent events while the page is open", content = @Content(mediaType = "text/event-stream")),
            @ApiResponse(responseCode = "503", description = PageStreams.FULL, content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/stream")
    SseEmitter stream() {
        return pages.open("replays", replays.all());
    }

    /**
     * Every 500 ms while a page is open: the replays, when they changed since the last push (a replay that runs
     * changes at every push; with none running nothing is sent).
     */
    private synchronized void push() {
        List<ReplayStatus> all = replays.all();
        if (all.equals(sent)) {
            return;
        }
        sent = all;
        pages.send("replays", all);
    }

    /** Ends the open event streams when the context closes, before the web server's graceful shutdown. */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        pages.closeAll();
    }
}
