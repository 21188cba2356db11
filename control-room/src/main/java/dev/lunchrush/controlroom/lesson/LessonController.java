package dev.lunchrush.controlroom.lesson;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.controlroom.ControlRoomProperties;
import dev.lunchrush.support.PageStreams;
import dev.lunchrush.support.PushedPageStreams;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.server.ServerLimits;

/**
 * {@code GET /api/lesson} and its event stream {@code GET /api/lesson/stream}: the lesson once a second (event
 * {@code lesson}) while a page is open, nothing while none is.
 */
@RestController
class LessonController implements ApplicationListener<ContextClosedEvent> {

    private final LessonPoller poller;
    private final PushedPageStreams pages;

    LessonController(LessonPoller poller, ControlRoomProperties properties, ServerLimits limits) {
        this.poller = poller;
        this.pages = new PushedPageStreams("lesson-sse", properties.pushInterval(), limits, this::push);
    }

    @Operation(summary = "The lesson now: the act, each service's readiness, each reader's counts, backlog and oldest unread age, the order service's heap and feed, the firing alerts", responses = {
            @ApiResponse(responseCode = "200", description = "The lesson")})
    @GetMapping("/api/lesson")
    Lesson lesson() {
        return poller.lesson();
    }

    @Operation(summary = "The lesson as server-sent events (event lesson), once a second while the page is open", responses = {
            @ApiResponse(responseCode = "200", description = "The stream", content = @Content(mediaType = "text/event-stream")),
            @ApiResponse(responseCode = "503", description = PageStreams.FULL, content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/api/lesson/stream")
    SseEmitter stream() {
        return pages.open("lesson", poller.lesson());
    }

    private void push() {
        pages.send("lesson", poller.lesson());
    }

    /** Ends the open streams when the context closes, before the web server's graceful shutdown. */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        pages.closeAll();
    }
}
