package dev.lunchrush.analyticsdashboard.dashboard;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;

import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.DayReport;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.support.PageStreams;

/**
 * Server-sent events to the open pages: the stats and today's report (in the configured zone), at
 * most twice a second and only when something changed, plus once a second for the rate.
 */
@Component
class DashboardStream {

    private final OrderProcessor processor;
    private final Capacity capacity;
    private final Aggregates aggregates;
    private final ZoneId zone;
    private final PageStreams streams = new PageStreams(Duration.ofMinutes(30));
    private long sentVersion = -1;
    private long sentAt;

    DashboardStream(OrderProcessor processor, Capacity capacity, Aggregates aggregates, DashboardProperties properties) {
        this.processor = processor;
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.zone = properties.zone();
    }

    record Update(DashboardStats stats, DayReport today) {
    }

    SseEmitter open() {
        return streams.open("update", update());
    }

    private Update update() {
        Map<String, Long> received = processor.received();
        DashboardStats stats = new DashboardStats(received, received.values().stream().mapToLong(Long::longValue).sum(),
                capacity.perSecond(), processor.processedPerSecond(), processor.deadLettered(), zone.getId());
        return new Update(stats, aggregates.day(LocalDate.now(zone), zone));
    }

    @Scheduled(fixedDelay = 500)
    void push() {
        long version = processor.version();
        long now = System.currentTimeMillis();
        if (streams.isEmpty() || (version == sentVersion && now - sentAt < 1000)) {
            return;
        }
        sentVersion = version;
        sentAt = now;
        streams.send("update", update());
    }

    /** Open streams would hold a graceful shutdown for its whole timeout: end them first. */
    @EventListener(ContextClosedEvent.class)
    void closeAll() {
        streams.closeAll();
    }
}
