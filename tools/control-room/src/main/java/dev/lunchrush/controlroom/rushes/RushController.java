package dev.lunchrush.controlroom.rushes;

import java.net.URI;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.controlroom.ProblemException;

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

    @PostMapping("/api/rushes")
    ResponseEntity<ObjectNode> start(@RequestBody JsonNode body) {
        RushRun run = rushes.start(RushRequests.options(body), body);
        return ResponseEntity.accepted().location(URI.create("/api/rushes/" + run.id())).body(run.view(json));
    }

    @GetMapping("/api/rushes")
    List<RushSummary> list() {
        return rushes.summaries();
    }

    @GetMapping("/api/rushes/{id}")
    ObjectNode rush(@PathVariable String id) {
        return find(id).view(json);
    }

    /** Stops a running rush ({@code 202}: it reports within a second or two, then says {@code stopped}); an ended one is left as it is. */
    @DeleteMapping("/api/rushes/{id}")
    ResponseEntity<ObjectNode> stop(@PathVariable String id) {
        RushRun run = find(id);
        if (!run.running()) {
            return ResponseEntity.ok(run.view(json));
        }
        run.stop();
        return ResponseEntity.accepted().body(run.view(json));
    }

    private RushRun find(String id) {
        return rushes.find(id).orElseThrow(() -> new ProblemException(HttpStatus.NOT_FOUND, "No such rush",
                "no rush " + id + " here (the control room keeps its last rushes until it restarts)", List.of()));
    }
}
