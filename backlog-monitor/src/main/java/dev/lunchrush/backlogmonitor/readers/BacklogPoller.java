package dev.lunchrush.backlogmonitor.readers;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.lunchrush.backlogmonitor.BacklogProperties;

/** Asks every source for its readers' backlog every poll interval, each source on its own thread. */
@Component
class BacklogPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(BacklogPoller.class);

    private final List<BacklogSource> sources;
    private final BacklogBoard board;
    private final BacklogProperties properties;
    private volatile ScheduledExecutorService scheduler;

    BacklogPoller(List<BacklogSource> sources, BacklogBoard board, BacklogProperties properties) {
        this.sources = sources;
        this.board = board;
        this.properties = properties;
    }

    @Override
    public void start() {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(Math.max(1, sources.size()), runnable -> {
            Thread thread = new Thread(runnable, "backlog-poller");
            thread.setDaemon(true);
            return thread;
        });
        long interval = properties.pollInterval().toMillis();
        for (BacklogSource source : sources) {
            executor.scheduleWithFixedDelay(() -> pollOnce(source), 0, interval, TimeUnit.MILLISECONDS);
        }
        scheduler = executor;
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

    @Override
    public void stop() {
        ScheduledExecutorService executor = scheduler;
        if (executor != null) {
            executor.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public boolean isRunning() {
        return scheduler != null;
    }
}
