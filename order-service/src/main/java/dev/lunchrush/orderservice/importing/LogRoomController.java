package dev.lunchrush.orderservice.importing;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.web.BlockingWork;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/** {@code GET /admin/orders/import/room}: the room left on the log's disks, asked before a large import. */
@RestController
class LogRoomController {

    /** The orders topic and each log directory that holds a replica of it. */
    record Room(String topic, List<LogRoom.LogDir> logDirs) {
    }

    private final LogRoom room;
    private final BlockingWork blocking;

    LogRoomController(LogRoom room, BlockingWork blocking) {
        this.room = room;
        this.blocking = blocking;
    }

    @Operation(summary = "The room left on the disks of the log, for an import of many orders",
            description = "Each log directory holding a replica of the orders topic: its broker, path, the bytes still usable "
                    + "on its disk, the disk's size (-1 if not told) and how many of the topic's partitions it holds. "
                    + "./demo backfill asks before it writes.")
    @ApiResponse(responseCode = "200", description = "The log directories",
            content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = Room.class)))
    @ApiResponse(responseCode = "503", description = "Kafka did not answer. Type " + ProblemType.BASE + "unavailable",
            content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))
    @GetMapping(path = "/admin/orders/import/room", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Room> room() {
        // admin calls to Kafka, up to its timeout: not on an event loop
        return Mono.fromFuture(blocking.supply(() -> new Room(Topology.ORDERS_TOPIC, room.logDirs())));
    }
}
