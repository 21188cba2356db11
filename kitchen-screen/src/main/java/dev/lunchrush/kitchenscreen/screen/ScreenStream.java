package dev.lunchrush.kitchenscreen.screen;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

import org.jspecify.annotations.Nullable;

import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.support.PageStreams;
import dev.lunchrush.support.server.ServerLimits;

/**
 * Server-sent events to the open pages: a snapshot on connect, then every quarter second the new orders
 * and the counts, when there is something new. Orders are sent in batches so that a rush of thousands per
 * second does not become thousands of events per page. The quarter-second tick runs only while a page is
 * open: it starts with the first page and stops itself once the last one is gone, so a screen nobody
 * watches does no periodic work for its pages.
 */
@Component
class ScreenStream {

    static final Duration TICK = Duration.ofMillis(250);

    private final KitchenScreen screen;
    private final TaskScheduler scheduler;
    private final PageStreams streams;
    private @Nullable ScheduledFuture<?> ticking;
    private @Nullable ScreenStats sentStats;

    ScreenStream(KitchenScreen screen, TaskScheduler scheduler, ServerLimits limits) {
        this.streams = new PageStreams(Duration.ofMinutes(30), limits);
        this.screen = screen;
        this.scheduler = scheduler;
    }

    record Update(ScreenStats stats, List<ShownOrder> orders) {
    }

    record Snapshot(ScreenStats stats, Map<String, List<ShownOrder>> columns) {
    }

    /**
     * A new page's stream. What the pages already open have not been sent yet goes to them first, so that the new
     * page's snapshot and the next update do not both carry the same orders.
     */
    synchronized SseEmitter open() {
        push();
        SseEmitter emitter = streams.open("snapshot", new Snapshot(screen.stats(), screen.columns()));
        if (ticking == null && !streams.isEmpty()) {
            ticking = scheduler.scheduleWithFixedDelay(this::tick, TICK);
        }
        return emitter;
    }

    /** Open streams would hold a graceful shutdown for its whole timeout: end them first. */
    @EventListener(ContextClosedEvent.class)
    synchronized void closeAll() {
        streams.closeAll();
        stopTicking();
    }

    /** The tick while pages are open: what is new, if anything; the tick ends with the last page. */
    synchronized void tick() {
        push();
        if (streams.isEmpty()) {
            stopTicking();
        }
    }

    private void stopTicking() {
        if (ticking != null) {
            ticking.cancel(false);
            ticking = null;
        }
    }

    /** Sends the orders not sent yet and the counts to the open pages, when either is new. */
    private void push() {
        List<ShownOrder> orders = screen.drainUnsent();
        if (streams.isEmpty()) {
            sentStats = null;
            return;
        }
        ScreenStats stats = screen.stats();
        if (orders.isEmpty() && stats.equals(sentStats)) {
            return;
        }
        sentStats = stats;
        streams.send("update", new Update(stats, orders));
    }

    /** Whether the tick is scheduled (tests). */
    synchronized boolean ticking() {
        return ticking != null;
    }
}
