package dev.lunchrush.kitchenscreen.screen;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.support.PageStreams;

/**
 * Server-sent events to the open pages: a snapshot on connect, then every quarter second the new
 * orders and the counts. Orders are sent in batches so that a rush of thousands per second does not
 * become thousands of events per page.
 */
@Component
class ScreenStream {

    private final KitchenScreen screen;
    private final PageStreams streams = new PageStreams(Duration.ofMinutes(30));
    private long lastStatsAt;

    ScreenStream(KitchenScreen screen) {
        this.screen = screen;
    }

    record Update(ScreenStats stats, List<ShownOrder> orders) {
    }

    record Snapshot(ScreenStats stats, Map<String, List<ShownOrder>> columns) {
    }

    SseEmitter open() {
        return streams.open("snapshot", new Snapshot(screen.stats(), screen.columns()));
    }

    /** Open streams would hold a graceful shutdown for its whole timeout: end them first. */
    @EventListener(ContextClosedEvent.class)
    void closeAll() {
        streams.closeAll();
    }

    /**
     * The screen's one timer: gaps older than the grace period become missing orders, then the open pages get
     * what is new (one scheduled task rather than one for each).
     */
    @Scheduled(fixedDelay = 250)
    void push() {
        screen.expireGaps();
        List<ShownOrder> orders = screen.drainUnsent();
        long now = System.currentTimeMillis();
        if (orders.isEmpty() && now - lastStatsAt < 1000) {
            return;
        }
        lastStatsAt = now;
        if (streams.isEmpty()) {
            return;
        }
        streams.send("update", new Update(screen.stats(), orders));
    }
}
