package dev.lunchrush.support.readiness;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * Does a source answer? Asked at most once per {@link #FRESH} (a probe every second costs a check every few), on a
 * thread of its own, one check at a time, and waited for at most {@link #WAIT}: a broker that is away can hold a
 * connection attempt for its whole connection timeout (60 s by the AMQP client's default), longer than any probe
 * waits. While a check is still under way, the answer is "not answering".
 */
public final class SourceCheck {

    /** How long an answer is reused. */
    static final Duration FRESH = Duration.ofSeconds(2);
    /** How long a probe waits for a check under way. */
    static final Duration WAIT = Duration.ofMillis(2500);

    private static final Executor CHECKS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "readiness-check");
        thread.setDaemon(true);
        return thread;
    });

    private final String name;
    private final Supplier<String> check;
    private volatile @Nullable CompletableFuture<String> running;
    private volatile @Nullable Answer last;

    /**
     * @param name what the health details call it ({@code rabbitmq}, {@code kafka}, {@code order-service})
     * @param check returns a short description of what answered, or throws when nothing did
     */
    public SourceCheck(String name, Supplier<String> check) {
        this.name = name;
        this.check = check;
    }

    public String name() {
        return name;
    }

    /** The source's state now, or as of at most {@link #FRESH} ago. */
    public Answer answer() {
        Answer known = last;
        if (known != null && System.nanoTime() - known.atNanos() < FRESH.toNanos()) {
            return known;
        }
        CompletableFuture<String> check = start();
        Answer answer;
        try {
            answer = new Answer(true, check.get(WAIT.toMillis(), TimeUnit.MILLISECONDS), System.nanoTime());
        }
        catch (TimeoutException ex) {
            return new Answer(false, "no answer within " + WAIT.toMillis() + " ms", System.nanoTime());
        }
        catch (ExecutionException ex) {
            Throwable cause = ex.getCause() == null ? ex : ex.getCause();
            answer = new Answer(false, cause.getClass().getSimpleName() + ": " + cause.getMessage(), System.nanoTime());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return new Answer(false, "interrupted", System.nanoTime());
        }
        last = answer;
        return answer;
    }

    private synchronized CompletableFuture<String> start() {
        CompletableFuture<String> current = running;
        if (current == null || current.isDone()) {
            current = CompletableFuture.supplyAsync(check, CHECKS);
            running = current;
        }
        return current;
    }

    /** Up or not, with what answered or why nothing did. */
    public record Answer(boolean up, String detail, long atNanos) {
    }
}
