package dev.lunchrush.analyticsdashboard.dashboard;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.DayReport;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.support.PageStreams;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;
import dev.lunchrush.support.problems.ProblemType;

/** The dashboard's HTTP side: stats, day reports, and the live stream the page listens to. */
@RestController
class DashboardController {

    private final OrderProcessor processor;
    private final Capacity capacity;
    private final Aggregates aggregates;
    private final DashboardStream stream;
    private final ZoneId zone;

    DashboardController(OrderProcessor processor, Capacity capacity, Aggregates aggregates, DashboardStream stream,
            DashboardProperties properties) {
        this.processor = processor;
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.stream = stream;
        this.zone = properties.zone();
    }

    @Operation(summary = "Orders received per source, the job's capacity and rate, dead letters", responses = {
            @ApiResponse(responseCode = "200", description = "The dashboard's figures")})
    @GetMapping("/api/stats")
    DashboardStats stats() {
        var received = processor.received();
        return new DashboardStats(received, received.values().stream().mapToLong(Long::longValue).sum(),
                capacity.perSecond(), processor.processedPerSecond(), processor.deadLettered(), zone.getId());
    }

    @Operation(summary = "A day's counts per kitchen, per dish (portions) and per hour, as the dashboard counted them", responses = {
            @ApiResponse(responseCode = "200", description = "The day"),
            @ApiResponse(responseCode = "400", description = "date is not yyyy-MM-dd, or zone is not a time zone", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/api/days/{date}")
    DayReport day(@Parameter(example = "2026-11-26") @PathVariable String date,
            @Parameter(description = "default lunchrush.zone", example = "UTC") @RequestParam(required = false) @Nullable String zone) {
        ZoneId reportZone = zone == null || zone.isBlank() ? this.zone : ZoneId.of(zone);
        return aggregates.day(LocalDate.parse(date), reportZone);
    }

    @Operation(summary = "The page's live updates", responses = {
            @ApiResponse(responseCode = "200", description = "Server-sent events while the page is open", content = @Content(mediaType = "text/event-stream")),
            @ApiResponse(responseCode = "503", description = PageStreams.FULL, content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/stream")
    SseEmitter stream() {
        return stream.open();
    }

    @ExceptionHandler(DateTimeParseException.class)
    ProblemDetail badDate(DateTimeParseException ex) {
        ProblemDetail problem = ProblemType.INVALID_INPUT.problem(
                "date must be yyyy-MM-dd, got '" + ex.getParsedString() + "'");
        problem.setProperty("field", "date");
        return problem;
    }

    @ExceptionHandler(DateTimeException.class)
    ProblemDetail badZone(DateTimeException ex) {
        ProblemDetail problem = ProblemType.INVALID_INPUT.problem(
                "zone is not a time zone: " + ex.getMessage());
        problem.setProperty("field", "zone");
        return problem;
    }
}
