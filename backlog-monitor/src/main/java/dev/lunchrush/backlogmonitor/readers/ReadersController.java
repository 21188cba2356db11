package dev.lunchrush.backlogmonitor.readers;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.backlogmonitor.BacklogProperties;

/**
 * {@code GET /api/readers} and the live page's event stream. Each read asks the poller for figures at most a
 * poll interval old first; the page is pushed them every poll interval while it is open.
 */
@RestController
class ReadersController implements ApplicationListener<ContextClosedEvent> {

    private final BacklogBoard board;
    private final BacklogPoller poller;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();
    /** pushes to the open pages every poll interval; nothing runs on it while no page is open */
    private final ScheduledExecutorService pusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "backlog-sse");
        thread.setDaemon(true);
        return thread;
    });

    private final long pushMillis;
    /** the push every poll interval, while a page is open: started by the first, ended after the last */
    private @Nullable ScheduledFuture<?> pushing;

    ReadersController(BacklogBoard board, BacklogPoller poller, BacklogProperties properties) {
        this.board = board;
        this.poller = poller;
        this.pushMillis = properties.pollInterval().toMillis();
    }

    @GetMapping("/api/readers")
    List<ReaderView> readers() {
        poller.refresh();
        return views();
    }

    private List<ReaderView> views() {
        Instant now = board.clock().instant();
        return board.readers().stream().map(reader -> ReaderView.of(reader, now)).toList();
    }

    @GetMapping("/api/sources")
    Map<String, Boolean> sources() {
        poller.refresh();
        return board.sources();
    }

    @GetMapping("/stream")
    SseEmitter stream() throws IOException {
        SseEmitter emitter = new SseEmitter(0L);
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> emitters.remove(emitter));
        emitter.onError(error -> emitters.remove(emitter));
        emitters.add(emitter);
        emitter.send(SseEmitter.event().name("backlog").data(snapshot()));
        startPushing();
        return emitter;
    }

    private synchronized void startPushing() {
        if (pushing == null && !pusher.isShutdown()) {
            pushing = pusher.scheduleWithFixedDelay(this::push, pushMillis, pushMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** Ends the push once no page is open; a page opened meanwhile starts it again. */
    private synchronized boolean stopPushingIfNobodyWatches() {
        if (emitters.isEmpty() && pushing != null) {
            pushing.cancel(false);
            pushing = null;
        }
        return pushing == null;
    }

    private Snapshot snapshot() {
        poller.refresh();
        return new Snapshot(board.clock().instant(), board.sources(), views());
    }

    private void push() {
        if (stopPushingIfNobodyWatches()) {
            return;
        }
        Snapshot snapshot = snapshot();
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name("backlog").data(snapshot));
            }
            catch (IOException | IllegalStateException ex) {
                // the page went away
                emitters.remove(emitter);
            }
        }
    }

    /**
     * Ends the open event streams when the context closes, before the web server's graceful shutdown,
     * which would otherwise wait its whole timeout for these never-ending responses.
     */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        pusher.shutdownNow();
        emitters.forEach(SseEmitter::complete);
        emitters.clear();
    }

    record Snapshot(Instant at, Map<String, Boolean> sources, List<ReaderView> readers) {
    }

    /**
     * The shape of {@code GET /api/readers} (docs/ARCHITECTURE.md), plus when the oldest unread event
     * was written and the per-partition or per-queue figures.
     *
     * @param oldestUnreadAgeSeconds null when there is a backlog whose age cannot be known
     */
    record ReaderView(String reader, String kind, long unread, @Nullable Double oldestUnreadAgeSeconds,
            @Nullable Instant oldestUnreadAt, Map<String, Object> details) {

        static ReaderView of(ReaderBacklog backlog, Instant now) {
            double age = backlog.ageSecondsAt(now);
            return new ReaderView(backlog.reader(), backlog.kind(), backlog.unread(), Double.isNaN(age) ? null : age,
                    backlog.unread() == 0 ? null : backlog.oldestUnreadAt(), backlog.details());
        }
    }
}
