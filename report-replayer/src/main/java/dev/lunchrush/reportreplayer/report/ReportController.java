package dev.lunchrush.reportreplayer.report;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.reportreplayer.ReplayerProperties;
import dev.lunchrush.reportreplayer.web.Problems;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/** The kept reports: listed, as JSON and as CSV. */
@RestController
class ReportController {

    private final ReportStore store;
    private final ZoneId defaultZone;

    ReportController(ReportStore store, ReplayerProperties properties) {
        this.store = store;
        this.defaultZone = properties.zone();
    }

    @Operation(summary = "Every report kept, newest first, with the links to its JSON and CSV", responses = {
            @ApiResponse(responseCode = "200", description = "The reports")})
    @GetMapping("/api/reports")
    List<ReportSummary> reports() {
        return store.all().stream().map(ReportSummary::of).toList();
    }

    @Operation(summary = "A day's report, as its replay wrote it", responses = {
            @ApiResponse(responseCode = "200", description = "The report"),
            @ApiResponse(responseCode = "400", description = "date is not yyyy-MM-dd, or zone is not a time zone", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
            @ApiResponse(responseCode = "404", description = "No report for that day and zone: replay it first (POST /admin/replays)", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/api/reports/{date}")
    DayReport report(@Parameter(example = "2026-11-26") @PathVariable String date,
            @Parameter(description = "default lunchrush.zone", example = "UTC") @RequestParam(required = false) @Nullable String zone) {
        return find(date, zone);
    }

    @Operation(summary = "A day's report as CSV", responses = {
            @ApiResponse(responseCode = "200", description = "The report", content = @Content(mediaType = "text/csv")),
            @ApiResponse(responseCode = "400", description = "date is not yyyy-MM-dd, or zone is not a time zone", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
            @ApiResponse(responseCode = "404", description = "No report for that day and zone: replay it first (POST /admin/replays)", content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping("/api/reports/{date}.csv")
    ResponseEntity<String> csv(@Parameter(example = "2026-11-26") @PathVariable String date,
            @Parameter(description = "default lunchrush.zone", example = "UTC") @RequestParam(required = false) @Nullable String zone) {
        DayReport report = find(date, zone);
        return ResponseEntity.ok()
                .contentType(new MediaType("text", "csv", java.nio.charset.StandardCharsets.UTF_8))
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"orders-" + report.date() + "-"
                        + report.zone().replace('/', '-') + ".csv\"")
                .body(ReportCsv.of(report));
    }

    private DayReport find(String date, @Nullable String zone) {
        LocalDate day = Dates.date(date);
        ZoneId zoneId = zone == null || zone.isBlank() ? defaultZone : Dates.zone(zone);
        return store.find(day, zoneId).orElseThrow(() -> Problems.notFound(
                "no report for " + day + " in " + zoneId.getId() + ": replay that day first (POST /admin/replays)"));
    }

    /** One line of the list of past reports. */
    record ReportSummary(String date, String zone, long totalOrders, long totalPortions, String replayId,
            java.time.Instant finishedAt, String json, String csv) {

        static ReportSummary of(DayReport report) {
            String query = "?zone=" + java.net.URLEncoder.encode(report.zone(), java.nio.charset.StandardCharsets.UTF_8);
            return new ReportSummary(report.date(), report.zone(), report.totalOrders(), report.totalPortions(),
                    report.replay().replayId(), report.replay().finishedAt(),
                    "/api/reports/" + report.date() + query, "/api/reports/" + report.date() + ".csv" + query);
        }
    }
}
