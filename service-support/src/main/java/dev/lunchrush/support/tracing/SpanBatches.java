package dev.lunchrush.support.tracing;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import zipkin2.reporter.ReporterMetrics;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;

import org.springframework.beans.factory.DisposableBean;

/**
 * Sends the spans a reporter without a thread of its own holds ({@code messageTimeout} 0), from one timer thread: every
 * interval, or sooner once {@link #SPANS_PER_SEND} spans have ended since the last send (so that the reporter's queue,
 * bounded in bytes, is not filled at a high rate), as many messages as it takes to empty the queue, none when no span
 * ended; and once more when the service stops, before the reporter closes, so that a stopping service sends what it
 * holds.
 */
final class SpanBatches implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(SpanBatches.class);
    /** Messages sent in one round at most: a full queue is emptied in a few, a failing Zipkin is not asked more. */
    private static final int MAX_MESSAGES_PER_ROUND = 50;
    /** Spans that make a send due before its interval: about half a megabyte, one message. */
    static final int SPANS_PER_SEND = 1000;
    private static final long TICK_MILLIS = 1000;

    private final AsyncZipkinSpanHandler handler;
    private final Counts counts;
    private final ScheduledExecutorService timer;
    private final long intervalNanos;
    private long reportedAtLastSend;
    private long lastSendNanos = System.nanoTime();

    /** {@code counts} must be the reporter's metrics ({@code AsyncZipkinSpanHandler.Builder.metrics}). */
    SpanBatches(AsyncZipkinSpanHandler handler, Counts counts, Duration interval) {
        this.handler = handler;
        this.counts = counts;
        this.intervalNanos = interval.toNanos();
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "zipkin-spans");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Sends if a send is due: its interval has passed, or enough spans ended since the last. */
    synchronized void tick() {
        if (System.nanoTime() - lastSendNanos >= intervalNanos
                || counts.reported.get() - reportedAtLastSend >= SPANS_PER_SEND) {
            send();
        }
    }

    /** Sends what the reporter holds, if any span ended since the last send. */
    synchronized void send() {
        lastSendNanos = System.nanoTime();
        long reported = counts.reported.get();
        if (reported == reportedAtLastSend && counts.queued.get() == 0) {
            return;
        }
        try {
            int messages = 0;
            do {
                handler.flush();
            }
            while (counts.queued.get() > 0 && ++messages < MAX_MESSAGES_PER_ROUND);
            reportedAtLastSend = reported;
        }
        catch (RuntimeException ex) {
            log.warn("Could not send spans to Zipkin: {}", ex.toString());
        }
    }

    @Override
    public void destroy() throws InterruptedException {
        timer.shutdownNow();
        timer.awaitTermination(5, TimeUnit.SECONDS);
        send();
    }

    /** What the reporter counts that this needs: the spans reported to it, and those still queued after a send. */
    static final class Counts implements ReporterMetrics {

        final AtomicLong reported = new AtomicLong();
        final AtomicLong queued = new AtomicLong();

        @Override
        public void incrementSpans(int quantity) {
            reported.addAndGet(quantity);
        }

        @Override
        public void updateQueuedSpans(int update) {
            queued.set(update);
        }

        @Override
        public void incrementMessages() {
        }

        @Override
        public void incrementMessagesDropped(Throwable cause) {
        }

        @Override
        public void incrementSpanBytes(int quantity) {
        }

        @Override
        public void incrementMessageBytes(int quantity) {
        }

        @Override
        public void incrementSpansDropped(int quantity) {
        }

        @Override
        public void updateQueuedBytes(int update) {
        }
    }
}
