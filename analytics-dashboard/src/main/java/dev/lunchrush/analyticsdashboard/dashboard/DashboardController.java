package dev.lunchrush.analyticsdashboard.dashboard;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
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

    @GetMapping("/api/stats")
    DashboardStats stats() {
        var received = processor.received();
        return new DashboardStats(received, received.values().stream().mapToLong(Long::longValue).sum(),
                capacity.perSecond(), processor.processedPerSecond(), processor.deadLettered(), zone.getId());
    }

    @GetMapping("/api/days/{date}")
    DayReport day(@PathVariable String date, @RequestParam(required = false) @Nullable String zone) {
        ZoneId reportZone = zone == null || zone.isBlank() ? this.zone : ZoneId.of(zone);
        return aggregates.day(LocalDate.parse(date), reportZone);
    }

    @GetMapping("/stream")
    SseEmitter stream() {
        return stream.open();
    }

    @ExceptionHandler(DateTimeParseException.class)
    ProblemDetail badDate(DateTimeParseException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                "date must be yyyy-MM-dd, got '" + ex.getParsedString() + "'");
        problem.setProperty("field", "date");
        return problem;
    }

    @ExceptionHandler(DateTimeException.class)
    ProblemDetail badZone(DateTimeException ex) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
                "zone is not a time zone: " + ex.getMessage());
        problem.setProperty("field", "zone");
        return problem;
    }
}
