package dev.lunchrush.support;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The server-sent event streams of a page's open tabs: each gets a first event when it connects, then
 * every event sent to all; a stream that fails or ends is dropped. The caller decides what to send
 * and how often, and ends the streams on shutdown ({@link #closeAll}), which they would otherwise
 * hold for a graceful shutdown's whole timeout.
 */
public final class PageStreams {

    private final long timeoutMillis;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();

    public PageStreams(Duration timeout) {
        this.timeoutMillis = timeout.toMillis();
    }

    /** A new stream whose first event is {@code first}, as JSON. */
    public SseEmitter open(String eventName, Object first) {
        SseEmitter emitter = new SseEmitter(timeoutMillis);
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> emitters.remove(emitter));
        emitter.onError(ex -> emitters.remove(emitter));
        try {
            emitter.send(SseEmitter.event().name(eventName).data(first, MediaType.APPLICATION_JSON));
            emitters.add(emitter);
        }
        catch (IOException ex) {
            emitter.completeWithError(ex);
        }
        return emitter;
    }

    public boolean isEmpty() {
        return emitters.isEmpty();
    }

    /** Sends the event, as JSON, to every open stream. */
    public void send(String eventName, Object data) {
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name(eventName).data(data, MediaType.APPLICATION_JSON));
            }
            catch (IOException | IllegalStateException ex) {
                emitters.remove(emitter);
            }
        }
    }

    public void closeAll() {
        emitters.forEach(SseEmitter::complete);
        emitters.clear();
    }
}
