package dev.lunchrush.analyticsdashboard.dashboard;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

import org.jspecify.annotations.Nullable;

import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.DayReport;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.support.PageStreams;
import dev.lunchrush.support.server.ServerLimits;

/**
 * Server-sent events to the open pages: the stats and today's report (in the configured zone), at
 * most twice a second and only when something changed, plus once a second for the rate. The half-second
 * tick runs only while a page is open: it starts with the first page and stops itself once the last one is
 * gone, so a dashboard nobody watches does no periodic work for its pages.
 */
@Component
class DashboardStream {

    static final Duration TICK = Duration.ofMillis(500);

    private final OrderProcessor processor;
    private final Capacity capacity;
    private final Aggregates aggregates;
    private final ZoneId zone;
    private final TaskScheduler scheduler;
    private final PageStreams streams;
    private @Nullable ScheduledFuture<?> ticking;
    private long sentVersion = -1;
    private long sentAt;

    DashboardStream(OrderProcessor processor, Capacity capacity, Aggregates aggregates, DashboardProperties properties,
            TaskScheduler scheduler, ServerLimits limits) {
        this.streams = new PageStreams(Duration.ofMinutes(30), limits);
        this.processor = processor;
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.zone = properties.zone();
        this.scheduler = scheduler;
    }

    record Update(DashboardStats stats, DayReport today) {
    }

    synchronized SseEmitter open() {
        SseEmitter emitter = streams.open("update", update());
        if (ticking == null && !streams.isEmpty()) {
            ticking = scheduler.scheduleWithFixedDelay(this::push, TICK);
        }
        return emitter;
    }

    private Update update() {
        Map<String, Long> received = processor.received();
        DashboardStats stats = new DashboardStats(received, received.values().stream().mapToLong(Long::longValue).sum(),
                capacity.perSecond(), processor.processedPerSecond(), processor.deadLettered(), zone.getId());
        return new Update(stats, aggregates.day(LocalDate.now(zone), zone));
    }

    /** The tick while pages are open: an update when something changed or a second passed; ends with the last page. */
    synchronized void push() {
        if (streams.isEmpty()) {
            stopTicking();
            return;
        }
        long version = processor.version();
        long now = System.currentTimeMillis();
        if (version == sentVersion && now - sentAt < 1000) {
            return;
        }
        sentVersion = version;
        sentAt = now;
        streams.send("update", update());
    }

    private void stopTicking() {
        if (ticking != null) {
            ticking.cancel(false);
            ticking = null;
        }
    }

    /** Whether the tick is scheduled (tests). */
    synchronized boolean ticking() {
        return ticking != null;
    }

    /** Open streams would hold a graceful shutdown for its whole timeout: end them first. */
    @EventListener(ContextClosedEvent.class)
    synchronized void closeAll() {
        streams.closeAll();
        stopTicking();
    }
}
