package dev.lunchrush.reportreplayer.report;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

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

/** The kept reports: listed, as JSON and as CSV. */
@RestController
class ReportController {

    private final ReportStore store;
    private final ZoneId defaultZone;

    ReportController(ReportStore store, ReplayerProperties properties) {
        this.store = store;
        this.defaultZone = properties.zone();
    }

    @GetMapping("/api/reports")
    List<ReportSummary> reports() {
        return store.all().stream().map(ReportSummary::of).toList();
    }

    @GetMapping("/api/reports/{date}")
    DayReport report(@PathVariable String date, @RequestParam(required = false) @Nullable String zone) {
        return find(date, zone);
    }

    @GetMapping("/api/reports/{date}.csv")
    ResponseEntity<String> csv(@PathVariable String date, @RequestParam(required = false) @Nullable String zone) {
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
