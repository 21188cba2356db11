package dev.lunchrush.reportreplayer.replay;

import java.net.URI;
import java.time.Duration;
import java.util.List;

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
import dev.lunchrush.support.PushedPageStreams;

/** Starting replays (admin), following them (anyone), and the page's event stream. */
@RestController
class ReplayController implements ApplicationListener<ContextClosedEvent> {

    private final ReplayService replays;
    private final PushedPageStreams pages = new PushedPageStreams("replay-sse", Duration.ofMillis(500), this::push);
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
    SseEmitter stream() {
        return pages.open("replays", replays.all());
    }

    /**
     * Every 500 ms while a page is open: the replays, when they changed since the last push (a replay that runs
     * changes at every push; with none running nothing is sent).
     */
    private synchronized void push() {
        List<ReplayStatus> all = replays.all();
        if (all.equals(sent)) {
            return;
        }
        sent = all;
        pages.send("replays", all);
    }

    /** Ends the open event streams when the context closes, before the web server's graceful shutdown. */
    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        pages.closeAll();
    }
}
