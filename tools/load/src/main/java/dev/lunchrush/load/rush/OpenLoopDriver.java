package dev.lunchrush.load.rush;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

import io.netty.channel.EventLoop;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.lesson.RateProfile;

/**
 * Places orders open-loop: the i-th order of a segment is due at {@code start + i / rate}, whatever
 * happened to the previous ones, and is sent asynchronously at that time, so a slow service does not
 * slow the arrivals down (a closed loop would hide the queueing the lesson is about). Latency is measured
 * from the intended send time, not from when the request actually left.
 *
 * <p>Every order carries an {@code Idempotency-Key}. A 429 is retried after its {@code Retry-After}
 * with the same key and body, so that a throttled order is placed once and only once; a 503 is counted
 * and not retried (the write path is down: that is the measurement). When the in-flight limit is reached
 * or the scheduler runs late, the generator is not holding the asked rate, and it says so
 * ({@link #lagHistogram()}, {@link Counters#lateSends}).
 *
 * <p>The sends are timed by a {@link Pacer} on the client's event loop ({@link DriverHttp}): one thread wakes when
 * an order is due, sends every order due by then, and sets its timer for the next one; the answers come back on the
 * same thread. This class follows each order from its first send to its outcome, and counts.
 */
public final class OpenLoopDriver {

    /** A send more than this late counts as the generator not holding the rate. */
    static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ConnectionPool target;
    private final EventLoop loop;
    private final Pacer pacer;
    private final @Nullable Supplier<byte[]> bodies;
    private final Duration requestTimeout;
    private final Duration retryGrace;
    private final Counters counters = new Counters();
    private final Recorder latency = new Recorder(TimeUnit.MINUTES.toMicros(10), 3);
    private final Histogram lag = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
    private final AtomicLong outstanding = new AtomicLong();
    private final Histogram latencyTotal = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
    private final IdempotencyKeys keys = new IdempotencyKeys();

    private volatile LongConsumer sendObserver = nanos -> { };
    private volatile boolean finished;
    private volatile long lastSendDeadline = Long.MAX_VALUE;
    /** The first order, made before the clock starts; taken by the first send, on the event loop. */
    private @Nullable Order firstOrder;

    /**
     * @param http the client (its connections, its thread and its request timeout), which the caller closes; a
     *     client serves one driver at a time
     * @param bodies the orders' bodies, POSTed; {@code null} sends GETs to {@code ordersUri} instead (the HTTP
     *     ceiling of {@code ./demo bench}: the same driver against the service's cheapest endpoint)
     */
    public OpenLoopDriver(DriverHttp http, URI ordersUri, @Nullable Supplier<byte[]> bodies, RateProfile profile, long maxOrders,
            int maxInFlight, Duration retryGrace) {
        this.target = http.target(ordersUri);
        this.loop = http.eventLoop();
        this.bodies = bodies;
        this.requestTimeout = http.requestTimeout();
        this.retryGrace = retryGrace;
        this.pacer = new Pacer(loop, http.alarms(), profile, maxOrders, maxInFlight, new Pacer.Sends() {
            @Override
            public void send(long intendedNanos) {
                sendDue(intendedNanos);
            }

            @Override
            public void limitReached() {
                counters.inFlightLimitHits.increment();
            }
        });
    }

    /** Live figures, readable while the rush runs. */
    static final class Counters {
        final LongAdder scheduled = new LongAdder();
        final LongAdder attempts = new LongAdder();
        final LongAdder accepted = new LongAdder();
        final LongAdder throttled = new LongAdder();
        final LongAdder retried = new LongAdder();
        final LongAdder unavailable = new LongAdder();
        final LongAdder timeouts = new LongAdder();
        final LongAdder errors = new LongAdder();
        final LongAdder gaveUp = new LongAdder();
        final LongAdder reconnects = new LongAdder();
        final LongAdder lateSends = new LongAdder();
        final LongAdder inFlightLimitHits = new LongAdder();
        final Map<Integer, LongAdder> otherStatuses = new ConcurrentHashMap<>();
        /** Why requests failed without an answer, by exception and message (the first few kinds). */
        final Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();
        final AtomicLong firstSendNanos = new AtomicLong();
        final AtomicLong lastSendNanos = new AtomicLong();
        volatile long currentLagNanos;
    }

    Counters counters() {
        return counters;
    }

    long startNanos() {
        return pacer.startNanos();
    }

    /** Orders not finished yet: in flight or waiting to be retried. */
    long outstanding() {
        return outstanding.get();
    }

    /** Told the {@link System#nanoTime()} of every first attempt as it leaves (tests measure the schedule with it). */
    void observeSends(LongConsumer observer) {
        this.sendObserver = observer;
    }

    /** Requests answered 200 or 201. */
    public long accepted() {
        return counters.accepted.sum();
    }

    /** Requests that ended any other way: refused, throttled, timed out, failed. */
    public long notAccepted() {
        return counters.unavailable.sum() + counters.throttled.sum() + counters.timeouts.sum() + counters.errors.sum()
                + counters.otherStatuses.values().stream().mapToLong(LongAdder::sum).sum();
    }

    /** How late the latest send was against its intended time, ms. */
    public long currentLagMillis() {
        return TimeUnit.NANOSECONDS.toMillis(counters.currentLagNanos);
    }

    /** Sends that left more than {@link #LATE_NANOS} after their intended time. */
    public long lateSends() {
        return counters.lateSends.sum();
    }

    /** Stops scheduling new orders; what is in flight finishes. */
    public void stop() {
        pacer.stop();
    }

    public boolean stopped() {
        return pacer.stopped();
    }

    /** How late each send was against its intended time (microseconds). */
    Histogram lagHistogram() {
        synchronized (lag) {
            return lag.copy();
        }
    }

    /**
     * Latency of the orders accepted since the last call (microseconds), for the live table; they count in
     * {@link #latencyHistogram()} as well.
     */
    Histogram latencySinceLastCall() {
        synchronized (latencyTotal) {
            Histogram interval = latency.getIntervalHistogram();
            latencyTotal.add(interval);
            return interval;
        }
    }

    /** Latency of accepted orders, from the intended send time of the first attempt (microseconds). */
    public Histogram latencyHistogram() {
        synchronized (latencyTotal) {
            latencyTotal.add(latency.getIntervalHistogram());
            return latencyTotal.copy();
        }
    }

    /**
     * Sends the whole profile (once: a driver runs one profile), then waits (at most the retry grace) for what is
     * still outstanding. The sends are timed on the client's event loop ({@link Pacer}), not on the calling thread.
     */
    public void run() {
        // one connection, the codec's classes, the key's SecureRandom and the caller's first body, before the clock
        target.connect(Duration.ofSeconds(5));
        firstOrder = newOrder(0);
        pacer.start();
        try {
            pacer.awaitDone();
        }
        catch (InterruptedException ex) {
            pacer.stop();
            Thread.currentThread().interrupt();
        }
        lastSendDeadline = System.nanoTime() + retryGrace.toNanos();
        awaitOutstanding();
        Throwable failure = pacer.failure();
        if (failure instanceof RuntimeException ex) {
            throw ex;
        }
        if (failure instanceof Error error) {
            throw error;
        }
    }

    /** The next order, due at {@code intended}, leaves now (its in-flight slot taken): counted, then sent. */
    private void sendDue(long intended) {
        long now = System.nanoTime();
        long late = Math.max(0, now - intended);
        counters.currentLagNanos = late;
        synchronized (lag) {
            lag.recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(late), lag.getHighestTrackableValue()));
        }
        if (late > LATE_NANOS) {
            counters.lateSends.increment();
        }
        counters.firstSendNanos.compareAndSet(0, now);
        counters.lastSendNanos.set(now);
        counters.scheduled.increment();
        sendObserver.accept(now);
        outstanding.incrementAndGet();
        Order order = firstOrder;
        if (order != null) {
            firstOrder = null;
            order.intendedNanos = intended;
        }
        else {
            order = newOrder(intended);
        }
        send(order);
    }

    private Order newOrder(long intended) {
        return new Order(bodies == null ? "" : keys.next(), bodies == null ? null : bodies.get(), intended);
    }

    private void awaitOutstanding() {
        long deadline = lastSendDeadline + requestTimeout.toNanos();
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        finished = true;
    }

    /** One order, sent once or more: the request of its current attempt, and where its outcome goes. */
    private final class Order extends DriverHttp.Exchange {

        final String idempotencyKey;
        final byte @Nullable [] body;
        long intendedNanos;
        int connectionRetries;

        Order(String idempotencyKey, byte @Nullable [] body, long intendedNanos) {
            this.idempotencyKey = idempotencyKey;
            this.body = body;
            this.intendedNanos = intendedNanos;
        }

        @Override
        byte @Nullable [] body() {
            return body;
        }

        @Override
        String idempotencyKey() {
            return idempotencyKey;
        }

        @Override
        void answered(int status, @Nullable String retryAfter) {
            completed(this, status, retryAfter);
        }

        @Override
        void failed(DriverHttp.Failure kind, Throwable cause) {
            completedWithout(this, kind, cause);
        }
    }

    private void send(Order order) {
        counters.attempts.increment();
        try {
            target.send(order);
        }
        catch (RuntimeException ex) {
            completedWithout(order, DriverHttp.Failure.OTHER, ex);
        }
    }

    /** Gives an in-flight slot back, which starts the schedule again if it stopped for want of one. */
    private void releaseSlot() {
        pacer.release();
    }

    /** A request that got no answer: timed out, dropped (sent again once), or failed. */
    private void completedWithout(Order order, DriverHttp.Failure kind, Throwable cause) {
        releaseSlot();
        if (kind == DriverHttp.Failure.TIMEOUT) {
            counters.timeouts.increment();
        }
        else if (kind == DriverHttp.Failure.DROPPED && order.connectionRetries == 0 && !finished) {
            // a kept-alive connection the server had just closed: the request may not have been read. The
            // Idempotency-Key makes sending it again safe, so the outcome becomes known.
            counters.reconnects.increment();
            order.connectionRetries++;
            loop.execute(() -> resend(order, false));
            return;
        }
        else {
            counters.errors.increment();
            if (counters.errorKinds.size() < 10) {
                counters.errorKinds.computeIfAbsent(cause.getClass().getSimpleName() + ": " + cause.getMessage(),
                        k -> new LongAdder()).increment();
            }
        }
        outstanding.decrementAndGet();
    }

    private void completed(Order order, int status, @Nullable String retryAfterHeader) {
        releaseSlot();
        if (status == 201 || status == 200) {
            counters.accepted.increment();
            long micros = TimeUnit.NANOSECONDS.toMicros(Math.max(0, System.nanoTime() - order.intendedNanos));
            latency.recordValue(Math.min(micros, TimeUnit.MINUTES.toMicros(10)));
            outstanding.decrementAndGet();
        }
        else if (status == 429) {
            counters.throttled.increment();
            Duration wait = RetryAfter.of(Optional.ofNullable(retryAfterHeader));
            if (System.nanoTime() + wait.toNanos() > lastSendDeadline || finished) {
                counters.gaveUp.increment();
                outstanding.decrementAndGet();
                return;
            }
            loop.schedule(() -> resend(order, true), wait.toNanos(), TimeUnit.NANOSECONDS);
        }
        else {
            if (status == 503) {
                counters.unavailable.increment();
            }
            else {
                counters.otherStatuses.computeIfAbsent(status, s -> new LongAdder()).increment();
            }
            outstanding.decrementAndGet();
        }
    }

    /** The same order again, same key and body, its latency still counted from the first intended time. */
    private void resend(Order order, boolean afterThrottling) {
        if (finished) {
            counters.gaveUp.increment();
            outstanding.decrementAndGet();
            return;
        }
        if (!pacer.tryTake()) {
            loop.schedule(() -> resend(order, afterThrottling), 5, TimeUnit.MILLISECONDS);
            return;
        }
        if (afterThrottling) {
            counters.retried.increment();
        }
        send(order);
    }
}
