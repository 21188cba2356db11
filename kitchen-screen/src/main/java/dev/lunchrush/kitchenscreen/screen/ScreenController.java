package dev.lunchrush.kitchenscreen.screen;

import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.support.PageStreams;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/** The screen's HTTP side: counts, columns, and the live stream the page listens to. */
@RestController
class ScreenController {

    private final KitchenScreen screen;
    private final ScreenStream stream;

    ScreenController(KitchenScreen screen, ScreenStream stream) {
        this.screen = screen;
        this.stream = stream;
    }

    @Operation(summary = "Orders received per source, placed (from the order service), missing and late", responses = {
            @ApiResponse(responseCode = "200", description = "The screen's figures")})
    @GetMapping("/api/stats")
    ScreenStats stats() {
        return screen.stats();
    }

    @Operation(summary = "Each kitchen's column: its most recent orders (lunchrush.screen.recent-per-kitchen)", responses = {
            @ApiResponse(responseCode = "200", description = "Kitchen id to its recent orders")})
    @GetMapping("/api/kitchens")
    Map<String, List<ShownOrder>> kitchens() {
        return screen.columns();
    }

    /** One order, if this screen has shown it: what a check after a fault asks of every acknowledged order. */
    @Operation(summary = "One order, if this screen has shown it", responses = {
            @ApiResponse(responseCode = "200", description = "The order as shown"),
            @ApiResponse(responseCode = "404", description = "Not shown on this screen, or longer ago than it remembers", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/api/orders/{orderId}")
    ShownOrder order(@Parameter(example = "0198a0c4-6d1e-7c3b-9f2a-3e5d7b1c9a40") @PathVariable String orderId) {
        return screen.find(orderId).orElseThrow(() -> {
            ProblemDetail problem = ProblemType.NOT_FOUND.problem(
                    "order " + orderId + " has not been shown on this screen (or was shown longer ago than it remembers)");
            problem.setTitle("Order not shown");
            return new ErrorResponseException(ProblemType.NOT_FOUND.status(), problem, null);
        });
    }

    @Operation(summary = "The page's live updates", responses = {
            @ApiResponse(responseCode = "200", description = "Server-sent events while the page is open", content = @Content(mediaType = "text/event-stream")),
            @ApiResponse(responseCode = "503", description = PageStreams.FULL, content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/stream")
    SseEmitter stream() {
        return stream.open();
    }
}
