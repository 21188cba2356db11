package dev.lunchrush.support;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.support.server.ServerLimits;

/**
 * A page's event streams ({@link PageStreams}, without a timeout) and a push to them at a fixed delay while one
 * is open: the first page starts the push, the push ends itself once the last page is gone, so a service that
 * nobody watches does no periodic work for its pages. The push runs on a daemon thread of its own. The caller
 * ends it all on shutdown ({@link #closeAll}), before the web server's graceful shutdown would wait its whole
 * timeout for these never-ending responses.
 */
public final class PushedPageStreams {

    private final PageStreams streams;
    private final ScheduledExecutorService pusher;
    private final long delayMillis;
    private final Runnable push;
    /** the push at a fixed delay, while a page is open: started by the first, ended after the last */
    private @Nullable ScheduledFuture<?> pushing;

    /**
     * @param threadName the pushing thread's
     * @param limits how many pages may be open, how many events may wait for one ({@link PageStreams})
     * @param push what is sent to the open pages at each push ({@link #send}); it runs only while a page is open
     */
    public PushedPageStreams(String threadName, Duration delay, ServerLimits limits, Runnable push) {
        this.streams = new PageStreams(Duration.ZERO, limits);
        this.pusher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        this.delayMillis = delay.toMillis();
        this.push = push;
    }

    /**
     * A new page's stream whose first event is {@code first}, as JSON; starts the push if it is not running.
     *
     * @throws org.springframework.web.ErrorResponseException 503 past the open pages' bound ({@link PageStreams#open})
     */
    public SseEmitter open(String eventName, Object first) {
        SseEmitter emitter = streams.open(eventName, first);
        startPushing();
        return emitter;
    }

    /** Queues the event, as JSON, for every open page; never waits for one ({@link PageStreams#send}). */
    public void send(String eventName, Object data) {
        streams.send(eventName, data);
    }

    public void closeAll() {
        pusher.shutdownNow();
        streams.closeAll();
    }

    private synchronized void startPushing() {
        if (pushing == null && !pusher.isShutdown()) {
            pushing = pusher.scheduleWithFixedDelay(this::tick, delayMillis, delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** Ends the push once no page is open; a page opened meanwhile starts it again. */
    private synchronized boolean stopPushingIfNobodyWatches() {
        if (streams.isEmpty() && pushing != null) {
            pushing.cancel(false);
            pushing = null;
        }
        return pushing == null;
    }

    private void tick() {
        if (!stopPushingIfNobodyWatches()) {
            push.run();
        }
    }
}
