package dev.lunchrush.load.rush;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

import org.HdrHistogram.Histogram;
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
 * ({@link #lagHistogram()}, {@link DriverCounters#lateSends}).
 *
 * <p>The sends are timed by a {@link Pacer} on the client's event loop ({@link DriverHttp}): one thread wakes when
 * an order is due, sends every order due by then, and sets its timer for the next one; the answers come back on the
 * same thread. This class makes each order and hands it to its first send; what becomes of it then is
 * {@link Outcomes}' (the retries), and what is counted is {@link DriverCounters}'.
 */
public final class OpenLoopDriver {

    /** A send more than this late counts as the generator not holding the rate. */
    static final long LATE_NANOS = DriverCounters.LATE_NANOS;

    private final ConnectionPool target;
    private final Pacer pacer;
    private final Outcomes outcomes;
    private final @Nullable Supplier<byte[]> bodies;
    private final Duration requestTimeout;
    private final Duration retryGrace;
    private final DriverCounters counters = new DriverCounters();
    private final IdempotencyKeys keys = new IdempotencyKeys();

    private volatile LongConsumer sendObserver = nanos -> { };
    /** The first order, made before the clock starts; taken by the first send, on the event loop. */
    private Outcomes.@Nullable Order firstOrder;

    /**
     * @param http the client (its connections, its thread and its request timeout), which the caller closes; a
     *     client serves one driver at a time
     * @param bodies the orders' bodies, POSTed; {@code null} sends GETs to {@code ordersUri} instead (the HTTP
     *     ceiling of {@code ./demo bench}: the same driver against the service's cheapest endpoint)
     */
    public OpenLoopDriver(DriverHttp http, URI ordersUri, @Nullable Supplier<byte[]> bodies, RateProfile profile, long maxOrders,
            int maxInFlight, Duration retryGrace) {
        this.target = http.target(ordersUri);
        this.bodies = bodies;
        this.requestTimeout = http.requestTimeout();
        this.retryGrace = retryGrace;
        this.pacer = new Pacer(http.eventLoop(), http.alarms(), profile, maxOrders, maxInFlight, new Pacer.Sends() {
            @Override
            public void send(long intendedNanos) {
                sendDue(intendedNanos);
            }

            @Override
            public void limitReached() {
                counters.inFlightLimitHits.increment();
            }
        });
        this.outcomes = new Outcomes(http.eventLoop(), pacer, target, counters);
    }

    DriverCounters counters() {
        return counters;
    }

    long startNanos() {
        return pacer.startNanos();
    }

    /** Orders not finished yet: in flight or waiting to be retried. */
    long outstanding() {
        return outcomes.outstanding();
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
        return counters.notAccepted();
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
        return counters.lagHistogram();
    }

    /**
     * Latency of the orders accepted since the last call (microseconds), for the live table; they count in
     * {@link #latencyHistogram()} as well.
     */
    Histogram latencySinceLastCall() {
        return counters.latencySinceLastCall();
    }

    /** Latency of accepted orders, from the intended send time of the first attempt (microseconds). */
    public Histogram latencyHistogram() {
        return counters.latencyHistogram();
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
        outcomes.awaitOutstanding(retryGrace, requestTimeout);
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
        counters.sent(intended, now);
        sendObserver.accept(now);
        Outcomes.Order order = firstOrder;
        if (order != null) {
            firstOrder = null;
            order.intendedNanos = intended;
        }
        else {
            order = newOrder(intended);
        }
        outcomes.first(order);
    }

    private Outcomes.Order newOrder(long intended) {
        return outcomes.new Order(bodies == null ? "" : keys.next(), bodies == null ? null : bodies.get(), intended);
    }
}
