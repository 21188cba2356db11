package dev.lunchrush.backlogmonitor.readers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.lunchrush.backlogmonitor.BacklogProperties;

/**
 * Asks the sources for their readers' backlog when somebody reads the figures (a Prometheus scrape, the
 * API, an open page), at most once per source's poll interval, each source on its own thread. Nobody
 * reading, nobody asked: the brokers are not polled for figures nobody sees. A reader waits for a poll
 * that is under way at most {@code wait-for-poll}; past that it gets the figures of the poll before, and
 * the poll goes on in the background (a broker that does not answer is then marked down by it).
 */
@Component
public class BacklogPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(BacklogPoller.class);

    private final List<Polled> sources;
    private final BacklogBoard board;
    private final long waitNanos;
    private volatile boolean running;

    BacklogPoller(List<BacklogSource> sources, BacklogBoard board, BacklogProperties properties) {
        this.sources = sources.stream().map(Polled::new).toList();
        this.board = board;
        this.waitNanos = properties.waitForPoll().toNanos();
    }

    /** One source, its thread, and its poll under way or last started. */
    private final class Polled {
        final BacklogSource source;
        final long intervalNanos;
        final ExecutorService thread;
        CompletableFuture<Void> current = CompletableFuture.completedFuture(null);
        long startedNanos;
        boolean started;

        Polled(BacklogSource source) {
            this.source = source;
            this.intervalNanos = source.pollInterval().toNanos();
            this.thread = Executors.newSingleThreadExecutor(runnable -> {
                Thread t = new Thread(runnable, "backlog-poll-" + source.name());
                t.setDaemon(true);
                return t;
            });
        }

        /** The poll under way, a new one if the last started more than the interval ago. */
        synchronized CompletableFuture<Void> fresh() {
            long now = System.nanoTime();
            if (current.isDone() && (!started || now - startedNanos >= intervalNanos)) {
                started = true;
                startedNanos = now;
                try {
                    current = CompletableFuture.runAsync(() -> pollOnce(source), thread);
                }
                catch (java.util.concurrent.RejectedExecutionException ex) {
                    // stopping: no more polls
                }
            }
            return current;
        }
    }

    /**
     * Makes the figures at most one poll interval old: starts a poll of each source whose last one started
     * longer ago, and waits for the polls under way, at most {@code wait-for-poll} in all.
     */
    public void refresh() {
        if (!running) {
            return;
        }
        List<CompletableFuture<Void>> polls = new ArrayList<>(sources.size());
        for (Polled polled : sources) {
            polls.add(polled.fresh());
        }
        long deadline = System.nanoTime() + waitNanos;
        for (CompletableFuture<Void> poll : polls) {
            try {
                poll.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
            catch (TimeoutException ex) {
                // answered with the figures of the poll before; this one finishes in the background
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
            catch (ExecutionException ex) {
                // pollOnce handles its own failures; nothing else is thrown
            }
        }
    }

    void pollOnce(BacklogSource source) {
        boolean wasUp = board.isUp(source.name());
        try {
            board.update(source.name(), source.poll());
            if (!wasUp) {
                log.info("{} answers: watching its readers", source.name());
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        catch (Exception | LinkageError ex) {
            board.down(source.name());
            // log on the transition only: a broker that is down for an hour must not fill the log
            if (wasUp) {
                log.warn("{} does not answer, its readers are dropped until it does: {}", source.name(), ex.toString());
            }
            else {
                log.debug("{} still down: {}", source.name(), ex.toString());
            }
        }
    }

    /** Starts a first poll of every source, so that the first reader finds figures (and the log says who answers). */
    @Override
    public void start() {
        running = true;
        sources.forEach(Polled::fresh);
    }

    @Override
    public void stop() {
        running = false;
        for (Polled polled : sources) {
            polled.thread.shutdownNow();
            try {
                polled.thread.awaitTermination(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
