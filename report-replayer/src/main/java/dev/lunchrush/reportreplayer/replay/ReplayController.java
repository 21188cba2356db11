package dev.lunchrush.reportreplayer.replay;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.reportreplayer.web.Problems;

/** Starting replays (admin), following them (anyone), and the page's event stream. */
@RestController
class ReplayController implements ApplicationListener<ContextClosedEvent> {

    private final ReplayService replays;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService pusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "replay-sse");
        thread.setDaemon(true);
        return thread;
    });

    /** the push every 500 ms, while a page is open: started by the first, ended after the last */
    private @Nullable ScheduledFuture<?> pushing;
    private @Nullable List<ReplayStatus> sent;

    ReplayController(ReplayService replays) {
        this.replays = replays;
    }

    @PostMapping("/admin/replays")
    ResponseEntity<ReplayStatus> start(@RequestBody ReplayRequest request) {
        ReplayStatus status = replays.start(request);
        return ResponseEntity.accepted().location(URI.create("/api/replays/" + status.id())).body(status);
    }

    @GetMapping("/api/replays")
    List<ReplayStatus> all() {
        return replays.all();
    }

    @GetMapping("/api/replays/{id}")
    ReplayStatus one(@PathVariable String id) {
        return replays.find(id).orElseThrow(() -> Problems.notFound("no replay " + id));
    }

    @GetMapping("/stream")
    SseEmitter stream() throws IOException {
        SseEmitter emitter = new SseEmitter(0L);
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> emitters.remove(emitter));
        emitter.onError(error -> emitters.remove(emitter));
        emitters.add(emitter);
        emitter.send(SseEmitter.event().name("replays").data(replays.all()));
        startPushing();
        return emitter;
    }

    private synchronized void startPushing() {
        if (pushing == null && !pusher.isShutdown()) {
            pushing = pusher.scheduleWithFixedDelay(this::push, 500, 500, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Every 500 ms while a page is open: the replays, when they changed since the last push (a replay that runs
     * changes at every push; with none running nothing is sent). Ends once no page is open.
     */
    private synchronized void push() {
        if (emitters.isEmpty()) {
            if (pushing != null) {
                pushing.cancel(false);
                pushing = null;
            }
            sent = null;
            return;
        }
        List<ReplayStatus> all = replays.all();
        if (all.equals(sent)) {
            return;
        }
        sent = all;
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name("replays").data(all));
            }
            catch (IOException | IllegalStateException ex) {
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
}
