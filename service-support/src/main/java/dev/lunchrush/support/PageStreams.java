package dev.lunchrush.support;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.support.server.ServerLimits;

/**
 * The server-sent event streams of a page's open tabs: each gets a first event when it connects, then every event
 * sent to all; a stream that fails or ends is dropped. The caller decides what to send and how often, and ends the
 * streams on shutdown ({@link #closeAll}), which they would otherwise hold for a graceful shutdown's whole timeout.
 * <p>
 * A viewer that does not read costs the others nothing: {@link #send} only queues the event for each stream, and each
 * stream is written by a writer thread of its own while it has events (a write waits while the viewer's socket is
 * full, at most the server's write timeout). A stream with {@link ServerLimits#pageStreamBuffer()} events waiting is
 * dropped: it gets no more, and ends after the write under way. At most {@link ServerLimits#pageStreams()} are open;
 * one more is refused with a 503 (problem+json, {@code Retry-After}). A {@code HEAD} (which Spring MVC answers with the
 * {@code GET} handler) gets the stream's headers and its first event into the void, and no stream: nothing would ever
 * read its events or notice it gone.
 */
public final class PageStreams {

    /** The 503 past the bound, as an API's documentation describes it. */
    public static final String FULL = "As many live pages are open as this service serves "
            + "(lunchrush.server.page-streams): try again after Retry-After";

    private static final Logger log = LoggerFactory.getLogger(PageStreams.class);

    private final long timeoutMillis;
    private final int maxStreams;
    private final int buffer;
    private final List<Stream> streams = new CopyOnWriteArrayList<>();
    private final ExecutorService writers = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "page-stream-writer");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean closed;

    public PageStreams(Duration timeout, ServerLimits limits) {
        this.timeoutMillis = timeout.toMillis();
        this.maxStreams = limits.pageStreams();
        this.buffer = limits.pageStreamBuffer();
    }

    /**
     * A new stream whose first event is {@code first}, as JSON.
     *
     * @throws ErrorResponseException 503 when {@link ServerLimits#pageStreams()} are open already, or they are closed
     */
    public SseEmitter open(String eventName, Object first) {
        SseEmitter emitter = new SseEmitter(timeoutMillis);
        if (isHead()) {
            sendFirst(emitter, eventName, first);
            emitter.complete();
            return emitter;
        }
        Stream stream = new Stream(emitter);
        synchronized (this) {
            if (closed) {
                throw unavailable(ProblemType.UNAVAILABLE, "The service is shutting down",
                        "this service is shutting down: no new live page");
            }
            if (streams.size() >= maxStreams) {
                throw unavailable(ProblemType.TOO_MANY_STREAMS, "Too many live pages", maxStreams
                        + " live pages are open here already, the most this service serves at once; try again later");
            }
            emitter.onCompletion(() -> streams.remove(stream));
            emitter.onTimeout(() -> streams.remove(stream));
            emitter.onError(ex -> streams.remove(stream));
            // not yet handed to the server: held in the emitter until the response is ready, nothing waits
            if (sendFirst(emitter, eventName, first)) {
                streams.add(stream);
            }
        }
        return emitter;
    }

    public boolean isEmpty() {
        return streams.isEmpty();
    }

    /** Queues the event, as JSON, for every open stream; never waits for one. */
    public void send(String eventName, Object data) {
        Event event = new Event(eventName, data);
        for (Stream stream : streams) {
            stream.offer(event);
        }
    }

    /** Ends every stream (after the write under way, if any) and refuses new ones. */
    public void closeAll() {
        synchronized (this) {
            closed = true;
        }
        for (Stream stream : streams) {
            streams.remove(stream);
            stream.end();
        }
        writers.shutdown();
    }

    private static boolean sendFirst(SseEmitter emitter, String eventName, Object first) {
        try {
            emitter.send(SseEmitter.event().name(eventName).data(first, MediaType.APPLICATION_JSON));
            return true;
        }
        catch (IOException ex) {
            emitter.completeWithError(ex);
            return false;
        }
    }

    private static boolean isHead() {
        return RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request
                && HttpMethod.HEAD.matches(request.getRequest().getMethod());
    }

    private static ErrorResponseException unavailable(ProblemType type, String title, String detail) {
        ProblemDetail problem = type.problem(detail);
        problem.setTitle(title);
        ErrorResponseException refused = new ErrorResponseException(type.status(), problem, null);
        refused.getHeaders().set(HttpHeaders.RETRY_AFTER, "10");
        return refused;
    }

    private record Event(String name, Object data) {
    }

    /**
     * One viewer's stream: the events not written yet (at most {@link #buffer}), written in order by one writer at a
     * time, on a thread of {@link #writers} while there are any.
     */
    private final class Stream {

        private final SseEmitter emitter;
        private final BlockingQueue<Event> unwritten = new ArrayBlockingQueue<>(buffer);
        private final AtomicBoolean writing = new AtomicBoolean();
        /** dropped or closed: ends after the write under way, nothing more is written */
        private volatile boolean ending;
        /** touched by the writer only */
        private boolean ended;

        Stream(SseEmitter emitter) {
            this.emitter = emitter;
        }

        void offer(Event event) {
            if (ending) {
                return;
            }
            if (!unwritten.offer(event)) {
                log.debug("a live page that does not read had {} events waiting: dropped", buffer);
                streams.remove(this);
                end();
                return;
            }
            write();
        }

        void end() {
            ending = true;
            unwritten.clear();
            write();
        }

        private void write() {
            if (writing.compareAndSet(false, true)) {
                try {
                    writers.execute(this::drain);
                }
                catch (RuntimeException shutDown) {
                    writing.set(false);
                }
            }
        }

        private void drain() {
            do {
                try {
                    Event event;
                    while (!ending && !ended && (event = unwritten.poll()) != null) {
                        emitter.send(SseEmitter.event().name(event.name()).data(event.data(), MediaType.APPLICATION_JSON));
                    }
                    if (ending && !ended) {
                        ended = true;
                        emitter.complete();
                    }
                }
                catch (IOException | IllegalStateException ex) {
                    // the viewer went away, or the server ended the stream: nothing more to write
                    ended = true;
                    streams.remove(this);
                    unwritten.clear();
                }
                finally {
                    writing.set(false);
                }
            }
            while (!ended && (ending || !unwritten.isEmpty()) && writing.compareAndSet(false, true));
        }
    }
}
