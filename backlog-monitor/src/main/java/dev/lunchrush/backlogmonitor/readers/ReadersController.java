package dev.lunchrush.backlogmonitor.readers;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.backlogmonitor.BacklogProperties;
import dev.lunchrush.support.PageStreams;
import dev.lunchrush.support.PushedPageStreams;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.server.ServerLimits;

/**
 * {@code GET /api/readers} and the live page's event stream. Each read asks the poller for figures at most a
 * poll interval old first; the page is pushed them every poll interval while it is open.
 */
@RestController
class ReadersController implements ApplicationListener<ContextClosedEvent> {

    private final BacklogBoard board;
    private final BacklogPoller poller;
    /** pushed to every poll interval while a page is open */
    private final PushedPageStreams pages;

    ReadersController(BacklogBoard board, BacklogPoller poller, BacklogProperties properties, ServerLimits limits) {
        this.pages = new PushedPageStreams("backlog-sse", properties.pollInterval(), limits, this::push);
        this.board = board;
        this.poller = poller;
    }

    @Operation(summary = "Every reader's unread events and the age of its oldest unread one (Kafka groups, RabbitMQ queues)", responses = {
            @ApiResponse(responseCode = "200", description = "The readers")})
    @GetMapping("/api/readers")
    List<ReaderView> readers() {
        poller.refresh();
        return views();
    }

    private List<ReaderView> views() {
        Instant now = board.clock().instant();
        return board.readers().stream().map(reader -> ReaderView.of(reader, now)).toList();
    }

    @Operation(summary = "Whether Kafka and RabbitMQ answered the last poll", responses = {
            @ApiResponse(responseCode = "200", description = "Source to up")})
    @GetMapping("/api/sources")
    Map<String, Boolean> sources() {
        poller.refresh();
        return board.sources();
    }

    @Operation(summary = "The page's live updates", responses = {
            @ApiResponse(responseCode = "200", description = "Server-sent events while the page is open", content = @Content(mediaType = "text/event-stream")),
            @ApiResponse(responseCode = "503", description = PageStreams.FULL, content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/stream")
    SseEmitter stream() {
        return pages.open("backlog", snapshot());
    }

    private Snapshot snapshot() {
        poller.refresh();
        return new Snapshot(board.clock().instant(), board.sources(), views());
    }

    private void push() {
        pages.send("backlog", snapshot());
    }

    /** Ends the open event streams when the context closes, before the web server's graceful shutdown. */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        pages.closeAll();
    }

    record Snapshot(Instant at, Map<String, Boolean> sources, List<ReaderView> readers) {
    }

    /**
     * The shape of {@code GET /api/readers} (docs/ARCHITECTURE.md), plus when the oldest unread event
     * was written and the per-partition or per-queue figures.
     *
     * @param oldestUnreadAgeSeconds null when there is a backlog whose age cannot be known
     */
    record ReaderView(String reader, String kind, long unread, @Nullable Double oldestUnreadAgeSeconds,
            @Nullable Instant oldestUnreadAt, Map<String, Object> details) {

        static ReaderView of(ReaderBacklog backlog, Instant now) {
            double age = backlog.ageSecondsAt(now);
            return new ReaderView(backlog.reader(), backlog.kind(), backlog.unread(), Double.isNaN(age) ? null : age,
                    backlog.unread() == 0 ? null : backlog.oldestUnreadAt(), backlog.details());
        }
    }
}
