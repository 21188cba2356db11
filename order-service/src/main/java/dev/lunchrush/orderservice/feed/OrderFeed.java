package dev.lunchrush.orderservice.feed;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/**
 * Act 3's in-memory feed: the events the analytics job has not taken yet, as their encoded bytes
 * (about 1 KB each) in a list on this JVM's heap ({@link PagedEvents}). Nothing here imitates the lesson: with
 * {@code unbounded} the list really grows until the JVM dies of OutOfMemoryError, and every event
 * still in it dies with it. The bounded strategies decide who pays when the job is slower than the
 * orders: the producer waits ({@code block}), the oldest events are lost ({@code drop}), or the
 * client is told to come back later ({@code throttle}).
 */
@Component
public class OrderFeed {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notFull = lock.newCondition();
    /** Pulls waiting for the first event, oldest first; each is answered by whoever takes it out of here. */
    private final Deque<Pull> pulls = new ArrayDeque<>();
    private final PagedEvents events = new PagedEvents();
    private final FeedSettings settings;
    private long bufferedBytes;
    /** Orders given room that are not in the list yet: their kitchen message is being confirmed. */
    private int reserved;
    /** Orders waiting for room under {@code block}. */
    private int waiting;
    private long accepted;
    private long delivered;
    private long dropped;
    private long rejected;

    OrderFeed(FeedSettings settings, MeterRegistry registry) {
        this.settings = settings;
        Gauge.builder("order.feed.buffered.events", this, feed -> feed.figures().buffered())
                .description("events in the in-memory feed that the analytics job has not taken yet")
                .register(registry);
        Gauge.builder("order.feed.buffered.bytes", this, feed -> feed.figures().bufferedBytes())
                .description("encoded size of the events in the in-memory feed")
                .register(registry);
        FunctionCounter.builder("order.feed.accepted", this, feed -> feed.figures().accepted())
                .description("events that entered the feed").register(registry);
        FunctionCounter.builder("order.feed.delivered", this, feed -> feed.figures().delivered())
                .description("events handed to the analytics job").register(registry);
        FunctionCounter.builder("order.feed.dropped", this, feed -> feed.figures().dropped())
                .description("oldest events discarded by the drop strategy").register(registry);
        FunctionCounter.builder("order.feed.rejected", this, feed -> feed.figures().rejected())
                .description("orders refused because the feed was full (throttle 429, block 503)").register(registry);
    }

    /**
     * Finds room for the event made by {@code factory} as the strategy says, and holds it: the event is
     * not in the feed until {@link #commit}, and its room is given back by {@link #cancel}. The order's
     * message to the kitchen is sent in between, so that an order the kitchen's queue refuses never
     * reaches the job either, while under {@code block} the kitchen still waits with the producer. The
     * event is made inside the feed's lock, only once it is certain to get room, so that a refused
     * order takes no sequence number.
     *
     * @throws ProblemException 429 (throttle) or 503 (block, after waiting, or when
     *         {@code max-waiting} orders wait already) when the feed is full
     */
    public Reservation reserve(FeedStrategy strategy, int capacity, Supplier<OrderEvent> factory) {
        lock.lock();
        try {
            switch (strategy) {
                case UNBOUNDED -> {
                }
                case BLOCK -> awaitRoom(capacity);
                case DROP -> {
                    while (events.size() + reserved >= capacity && !events.isEmpty()) {
                        bufferedBytes -= events.pollFirst().length;
                        dropped++;
                    }
                }
                case THROTTLE -> {
                    if (events.size() + reserved >= capacity) {
                        rejected++;
                        long seconds = Math.max(1, (settings.retryAfter().toMillis() + 999) / 1000);
                        throw new ProblemException(ProblemType.FEED_FULL, "Feed full",
                                "the analytics feed holds " + events.size() + " events (capacity " + capacity
                                        + "); retry after " + seconds + " s",
                                List.of(), Map.of("Retry-After", String.valueOf(seconds)));
                    }
                }
            }
            OrderEvent event = factory.get();
            reserved++;
            return new Reservation(event, OrderEventCodec.encode(event));
        }
        finally {
            lock.unlock();
        }
    }

    /** The reserved event enters the feed: the job can take it now. */
    public void commit(Reservation reservation) {
        Pull pull;
        List<byte[]> batch;
        lock.lock();
        try {
            reserved--;
            events.append(reservation.encoded());
            bufferedBytes += reservation.encoded().length;
            accepted++;
            pull = pulls.pollFirst();
            if (pull == null) {
                return;
            }
            batch = takeLocked(pull.max());
        }
        finally {
            lock.unlock();
        }
        // answered outside the lock: what follows the pull (its HTTP answer) does not hold up the intake
        pull.answer().complete(batch);
    }

    /** The reserved event never enters (its order was refused after all): its room is free again. */
    public void cancel(Reservation reservation) {
        lock.lock();
        try {
            reserved--;
            notFull.signal();
        }
        finally {
            lock.unlock();
        }
    }

    /** {@link #reserve} and {@link #commit} at once, for a caller with nothing to do in between. */
    public Reservation offer(FeedStrategy strategy, int capacity, Supplier<OrderEvent> factory) {
        Reservation reservation = reserve(strategy, capacity, factory);
        commit(reservation);
        return reservation;
    }

    private void awaitRoom(int capacity) {
        if (events.size() + reserved < capacity) {
            return;
        }
        if (waiting >= settings.maxWaiting()) {
            // each waiting order holds a request thread: beyond max-waiting, the job's pulls and the
            // status polls would find none, and the job could never make the room they wait for
            rejected++;
            throw ProblemException.unavailable("the analytics feed is full (capacity " + capacity + ") and "
                    + waiting + " orders wait for room already");
        }
        long nanos = settings.blockTimeout().toNanos();
        waiting++;
        try {
            while (events.size() + reserved >= capacity) {
                if (nanos <= 0) {
                    rejected++;
                    throw ProblemException.unavailable("the analytics feed stayed full (capacity " + capacity + ") for "
                            + settings.blockTimeout().toMillis() + " ms");
                }
                nanos = notFull.awaitNanos(nanos);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            rejected++;
            throw ProblemException.unavailable("interrupted while waiting for room in the feed");
        }
        finally {
            waiting--;
        }
    }

    /**
     * Hands out up to {@code max} events, oldest first, waiting up to {@code wait} for the first; nobody
     * waits on a thread: the future is completed by the commit that brings the first event, or with
     * nothing once {@code wait} is over. What is handed out leaves the feed: the job owns it now.
     */
    public CompletableFuture<List<byte[]>> take(int max, Duration wait) {
        int limit = limit(max);
        long nanos = Math.min(wait.toNanos(), settings.maxWait().toNanos());
        Pull pull;
        lock.lock();
        try {
            if (!events.isEmpty() || nanos <= 0) {
                return CompletableFuture.completedFuture(takeLocked(limit));
            }
            pull = new Pull(limit, new CompletableFuture<>());
            pulls.addLast(pull);
        }
        finally {
            lock.unlock();
        }
        Executor later = CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS, Runnable::run);
        later.execute(() -> giveUp(pull));
        return pull.answer();
    }

    /** What a pull asking for {@code max} events may get: at most {@code lunchrush.feed.max-batch}. */
    int limit(int max) {
        return Math.max(1, Math.min(max, settings.maxBatch()));
    }

    /** Up to {@code max} events at once, none when the feed is empty: the next chunk of a pull being answered. */
    List<byte[]> takeNow(int max) {
        lock.lock();
        try {
            return takeLocked(limit(max));
        }
        finally {
            lock.unlock();
        }
    }

    /** A pull whose wait is over and that no event came for gets nothing. */
    private void giveUp(Pull pull) {
        boolean waiting;
        lock.lock();
        try {
            waiting = pulls.remove(pull);
        }
        finally {
            lock.unlock();
        }
        if (waiting) {
            pull.answer().complete(List.of());
        }
    }

    /**
     * The puller went away before its answer (its connection closed): its pull waits no longer, so that the
     * next event is not handed to nobody.
     */
    public void abandon(CompletableFuture<List<byte[]>> answer) {
        lock.lock();
        try {
            pulls.removeIf(pull -> pull.answer() == answer);
        }
        finally {
            lock.unlock();
        }
    }

    private List<byte[]> takeLocked(int limit) {
        if (events.isEmpty()) {
            return List.of();
        }
        List<byte[]> batch = new ArrayList<>(Math.min(limit, events.size()));
        while (batch.size() < limit && !events.isEmpty()) {
            byte[] event = events.pollFirst();
            bufferedBytes -= event.length;
            batch.add(event);
        }
        delivered += batch.size();
        notFull.signalAll();
        return batch;
    }

    /** A {@code GET /feed} waiting for the first event. */
    private record Pull(int max, CompletableFuture<List<byte[]>> answer) {
    }

    /** Orders waiting for room under {@code block} right now. */
    int waitingForRoom() {
        lock.lock();
        try {
            return waiting;
        }
        finally {
            lock.unlock();
        }
    }

    public FeedFigures figures() {
        lock.lock();
        try {
            return new FeedFigures(events.size(), bufferedBytes, accepted, delivered, dropped, rejected);
        }
        finally {
            lock.unlock();
        }
    }

    /** Room held for an event, with the bytes it is kept as (reused for the kitchen's message). */
    public record Reservation(OrderEvent event, byte[] encoded) {
    }
}
