package dev.lunchrush.orderservice.web;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Component;

import dev.lunchrush.support.problems.ProblemException;

/**
 * Threads for what may block and so must never run on an event loop: an order waiting for room in the
 * feed under {@code block}, an import's Kafka transaction, an act switch's file (orders' publishes to
 * RabbitMQ have a thread of their own, see {@code RabbitOrderPublisher}). Bounded: at most
 * {@value #THREADS} at once and {@value #QUEUE} waiting; beyond that a request is answered 503 at once
 * instead of piling up in memory.
 */
@Component
public class BlockingWork implements DisposableBean {

    static final int THREADS = 64;
    static final int QUEUE = 10_000;

    private final ThreadPoolTaskExecutor threads = new ThreadPoolTaskExecutor();

    BlockingWork() {
        threads.setCorePoolSize(THREADS);
        threads.setMaxPoolSize(THREADS);
        threads.setQueueCapacity(QUEUE);
        threads.setAllowCoreThreadTimeOut(true);
        threads.setKeepAliveSeconds(30);
        threads.setThreadNamePrefix("blocking-");
        threads.setDaemon(true);
        threads.setWaitForTasksToCompleteOnShutdown(true);
        threads.setAwaitTerminationMillis(Duration.ofSeconds(10).toMillis());
        threads.initialize();
    }

    /** {@code work} on one of these threads; a 503 problem when too much waits already. */
    public <T> CompletableFuture<T> supply(Supplier<T> work) {
        try {
            return CompletableFuture.supplyAsync(work, threads);
        }
        catch (RejectedExecutionException ex) {
            return CompletableFuture.failedFuture(ProblemException.unavailable(
                    "the order service has " + QUEUE + " requests waiting for a thread already"));
        }
    }

    @Override
    public void destroy() {
        threads.shutdown();
    }
}
