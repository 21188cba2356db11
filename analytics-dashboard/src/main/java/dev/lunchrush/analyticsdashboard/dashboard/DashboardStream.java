package dev.lunchrush.analyticsdashboard.dashboard;

import java.io.IOException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.DayReport;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;

/**
 * Server-sent events to the open pages: the stats and today's report (in the configured zone), at
 * most twice a second and only when something changed, plus once a second for the rate.
 */
@Component
class DashboardStream {

    private static final long TIMEOUT_MILLIS = 30 * 60 * 1000L;

    private final OrderProcessor processor;
    private final Capacity capacity;
    private final Aggregates aggregates;
    private final ZoneId zone;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();
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
        SseEmitter emitter = new SseEmitter(TIMEOUT_MILLIS);
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> emitters.remove(emitter));
        emitter.onError(ex -> emitters.remove(emitter));
        try {
            emitter.send(SseEmitter.event().name("update").data(update(), MediaType.APPLICATION_JSON));
            emitters.add(emitter);
        }
        catch (IOException ex) {
            emitter.completeWithError(ex);
        }
        return emitter;
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
        if (emitters.isEmpty() || (version == sentVersion && now - sentAt < 1000)) {
            return;
        }
        sentVersion = version;
        sentAt = now;
        Update update = update();
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name("update").data(update, MediaType.APPLICATION_JSON));
            }
            catch (IOException | IllegalStateException ex) {
                emitters.remove(emitter);
            }
        }
    }

    /** Open streams would hold a graceful shutdown for its whole timeout: end them first. */
    @EventListener(ContextClosedEvent.class)
    void closeAll() {
        emitters.forEach(SseEmitter::complete);
        emitters.clear();
    }
}
