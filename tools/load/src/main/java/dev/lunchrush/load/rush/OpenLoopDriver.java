package dev.lunchrush.load.rush;

import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.netty.channel.EventLoop;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;
import org.jspecify.annotations.Nullable;

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
 * <p>The sends are timed on the client's event loop ({@link DriverHttp}): one thread wakes when an order is due,
 * sends every order due by then, and sets its timer for the next one; the answers come back on the same thread.
 */
public final class OpenLoopDriver {

    /** A send more than this late counts as the generator not holding the rate. */
    static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    private final DriverHttp http;
    private final ConnectionPool target;
    private final EventLoop loop;
    private final @Nullable Supplier<byte[]> bodies;
    private final RateProfile profile;
    private final long maxOrders;
    private final Duration requestTimeout;
    private final Duration retryGrace;
    private final int maxInFlight;
    private final Counters counters = new Counters();
    private final Recorder latency = new Recorder(TimeUnit.MINUTES.toMicros(10), 3);
    private final Histogram lag = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
    private final AtomicLong outstanding = new AtomicLong();
    private final Histogram latencyTotal = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
    private final Keys keys = new Keys();

    private volatile java.util.function.LongConsumer sendObserver = nanos -> { };
    private volatile boolean stopped;
    private volatile boolean finished;
    private volatile long startNanos;
    private volatile long lastSendDeadline = Long.MAX_VALUE;

    /**
     * @param http the client (its connections, its thread and its request timeout), which the caller closes; a
     *     client serves one driver at a time
     * @param bodies the orders' bodies, POSTed; {@code null} sends GETs to {@code ordersUri} instead (the HTTP
     *     ceiling of {@code ./demo bench}: the same driver against the service's cheapest endpoint)
     */
    public OpenLoopDriver(DriverHttp http, URI ordersUri, @Nullable Supplier<byte[]> bodies, RateProfile profile, long maxOrders,
            int maxInFlight, Duration retryGrace) {
        this.http = http;
        this.target = http.target(ordersUri);
        this.loop = http.eventLoop();
        this.bodies = bodies;
        this.profile = profile;
        this.maxOrders = maxOrders <= 0 ? Long.MAX_VALUE : maxOrders;
        this.requestTimeout = http.requestTimeout();
        this.retryGrace = retryGrace;
        this.maxInFlight = maxInFlight;
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
        return startNanos;
    }

    /** Orders not finished yet: in flight or waiting to be retried. */
    long outstanding() {
        return outstanding.get();
    }

    /** Told the {@link System#nanoTime()} of every first attempt as it leaves (tests measure the schedule with it). */
    void observeSends(java.util.function.LongConsumer observer) {
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
        stopped = true;
        scheduleDone.countDown();
    }

    public boolean stopped() {
        return stopped;
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

    // where the schedule is: touched by the timing code only (pump() on the event loop, one call at a time)
    private int segmentIndex;
    private long segmentStart;
    private long segmentOrders;
    private double nanosPerOrder;
    private long indexInSegment;
    private long sent;
    private boolean limitCounted;
    private Alarms.@Nullable Alarm alarm;
    private @Nullable Order firstOrder;
    /** Requests sent and not finished (at most {@link #maxInFlight}); touched on the event loop only. */
    private int inFlight;
    /** pump() stopped at the in-flight limit; the next request to finish starts it again. */
    private boolean waitingForSlot;
    private final Runnable pump = this::pump;
    private final CountDownLatch scheduleDone = new CountDownLatch(1);
    private volatile @Nullable Throwable pumpFailure;

    /**
     * Sends the whole profile (once: a driver runs one profile), then waits (at most the retry grace) for what is
     * still outstanding. The sends are timed on the client's event loop ({@link #pump()}), not on the calling thread.
     */
    public void run() {
        // one connection, the codec's classes, the key's SecureRandom and the caller's first body, before the clock
        target.connect(Duration.ofSeconds(5));
        firstOrder = newOrder(0);
        startNanos = System.nanoTime();
        segmentIndex = -1;
        nextSegment();
        loop.execute(() -> {
            alarm = http.alarms().alarm(pump);
            pump();
        });
        try {
            scheduleDone.await();
        }
        catch (InterruptedException ex) {
            stopped = true;
            Thread.currentThread().interrupt();
        }
        lastSendDeadline = System.nanoTime() + retryGrace.toNanos();
        awaitOutstanding();
        Throwable failure = pumpFailure;
        if (failure instanceof RuntimeException ex) {
            throw ex;
        }
        if (failure instanceof Error error) {
            throw error;
        }
    }

    private void nextSegment() {
        segmentIndex++;
        indexInSegment = 0;
        if (segmentIndex < profile.segments().size()) {
            RateProfile.Segment segment = profile.segments().get(segmentIndex);
            segmentStart = startNanos + profile.offset(segmentIndex).toNanos();
            segmentOrders = segment.orders();
            nanosPerOrder = 1e9 / segment.ratePerSecond();
        }
    }

    /**
     * Sends every order that is due (the i-th of a segment at {@code start + i / rate}, never before), then sets
     * the alarm for the next. At the in-flight limit it stops, counts it, and the next request to finish calls
     * it again: the orders behind are then late, and counted late.
     */
    private void pump() {
        try {
            pumpDue();
        }
        catch (RuntimeException | Error ex) {
            pumpFailure = ex;
            stopped = true;
            scheduleDone.countDown();
        }
    }

    private void pumpDue() {
        while (true) {
            if (stopped || sent >= maxOrders || segmentIndex >= profile.segments().size()) {
                http.alarms().release(alarm);
                scheduleDone.countDown();
                return;
            }
            if (indexInSegment >= segmentOrders) {
                nextSegment();
                continue;
            }
            long intended = segmentStart + Math.round(indexInSegment * nanosPerOrder);
            long wait = intended - System.nanoTime();
            if (wait > 0) {
                alarm.set(intended);
                return;
            }
            if (inFlight >= maxInFlight) {
                if (!limitCounted) {
                    limitCounted = true;
                    counters.inFlightLimitHits.increment();
                }
                waitingForSlot = true;
                return;
            }
            limitCounted = false;
            inFlight++;
            sendDue(intended);
        }
    }

    /** The next order, due at {@code intended}, leaves now (its in-flight slot taken). */
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
        indexInSegment++;
        sent++;
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

    /** Gives an in-flight slot back, and starts the schedule again if it stopped for want of one. */
    private void releaseSlot() {
        inFlight--;
        if (waitingForSlot) {
            waitingForSlot = false;
            loop.execute(pump);
        }
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
            Duration wait = retryAfter(Optional.ofNullable(retryAfterHeader));
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
        if (inFlight >= maxInFlight) {
            loop.schedule(() -> resend(order, afterThrottling), 5, TimeUnit.MILLISECONDS);
            return;
        }
        inFlight++;
        if (afterThrottling) {
            counters.retried.increment();
        }
        send(order);
    }

    /**
     * Idempotency keys: random (version 4) UUIDs, from a generator seeded once from {@link SecureRandom}, so that
     * a key costs no read of the system's entropy source.
     */
    private static final class Keys {

        private final SplittableRandom random = new SplittableRandom(new SecureRandom().nextLong());

        synchronized String next() {
            long most = (random.nextLong() & ~0xF000L) | 0x4000L;
            long least = (random.nextLong() & ~(0xC000_0000_0000_0000L)) | 0x8000_0000_0000_0000L;
            return new UUID(most, least).toString();
        }
    }

    /** Retry-After in seconds (decimals tolerated) or as an HTTP date; 1 s when absent or unreadable, at most 30 s. */
    static Duration retryAfter(Optional<String> header) {
        Duration wait = Duration.ofSeconds(1);
        if (header.isPresent()) {
            String value = header.get().strip();
            try {
                wait = Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
            }
            catch (NumberFormatException notSeconds) {
                try {
                    wait = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(value, HTTP_DATE));
                }
                catch (DateTimeParseException notDate) {
                    // keep the default
                }
            }
        }
        if (wait.isNegative()) {
            return Duration.ZERO;
        }
        return wait.compareTo(Duration.ofSeconds(30)) > 0 ? Duration.ofSeconds(30) : wait;
    }
}
