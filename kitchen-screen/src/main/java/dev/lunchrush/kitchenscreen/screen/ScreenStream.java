package dev.lunchrush.kitchenscreen.screen;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Server-sent events to the open pages: a snapshot on connect, then every quarter second the new
 * orders and the counts. Orders are sent in batches so that a rush of thousands per second does not
 * become thousands of events per page.
 */
@Component
class ScreenStream {

    private static final long TIMEOUT_MILLIS = 30 * 60 * 1000L;

    private final KitchenScreen screen;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();
    private long lastStatsAt;

    ScreenStream(KitchenScreen screen) {
        this.screen = screen;
    }

    record Update(ScreenStats stats, List<ShownOrder> orders) {
    }

    record Snapshot(ScreenStats stats, Map<String, List<ShownOrder>> columns) {
    }

    SseEmitter open() {
        SseEmitter emitter = new SseEmitter(TIMEOUT_MILLIS);
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> emitters.remove(emitter));
        emitter.onError(ex -> emitters.remove(emitter));
        try {
            emitter.send(SseEmitter.event().name("snapshot")
                    .data(new Snapshot(screen.stats(), screen.columns()), MediaType.APPLICATION_JSON));
            emitters.add(emitter);
        }
        catch (IOException ex) {
            emitter.completeWithError(ex);
        }
        return emitter;
    }

    /** Open streams would hold a graceful shutdown for its whole timeout: end them first. */
    @EventListener(ContextClosedEvent.class)
    void closeAll() {
        emitters.forEach(SseEmitter::complete);
        emitters.clear();
    }

    @Scheduled(fixedDelay = 250)
    void push() {
        List<ShownOrder> orders = screen.drainUnsent();
        long now = System.currentTimeMillis();
        if (orders.isEmpty() && now - lastStatsAt < 1000) {
            return;
        }
        lastStatsAt = now;
        if (emitters.isEmpty()) {
            return;
        }
        Update update = new Update(screen.stats(), orders);
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name("update").data(update, MediaType.APPLICATION_JSON));
            }
            catch (IOException | IllegalStateException ex) {
                emitters.remove(emitter);
            }
        }
    }
}
