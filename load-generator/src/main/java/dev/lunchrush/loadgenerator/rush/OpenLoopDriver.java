package dev.lunchrush.loadgenerator.rush;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

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
 */
public final class OpenLoopDriver {

    /** A send more than this late counts as the generator not holding the rate. */
    static final long LATE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

    private final HttpClient http;
    private final URI ordersUri;
    private final @Nullable Supplier<byte[]> bodies;
    private final RateProfile profile;
    private final long maxOrders;
    private final Duration requestTimeout;
    private final Duration retryGrace;
    private final Semaphore inFlight;
    private final ScheduledExecutorService retries;
    private final Counters counters = new Counters();
    private final Recorder latency = new Recorder(TimeUnit.MINUTES.toMicros(10), 3);
    private final Histogram lag = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
    private final AtomicLong outstanding = new AtomicLong();
    private final Histogram latencyTotal = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);

    private volatile java.util.function.LongConsumer sendObserver = nanos -> { };
    private volatile boolean stopped;
    private volatile long startNanos;
    private volatile long lastSendDeadline = Long.MAX_VALUE;

    /**
     * @param bodies the orders' bodies, POSTed; {@code null} sends GETs to {@code ordersUri} instead (the HTTP
     *     ceiling of {@code ./demo bench}: the same driver against the service's cheapest endpoint)
     */
    public OpenLoopDriver(HttpClient http, URI ordersUri, @Nullable Supplier<byte[]> bodies, RateProfile profile, long maxOrders,
            int maxInFlight, Duration requestTimeout, Duration retryGrace) {
        this.http = http;
        this.ordersUri = ordersUri;
        this.bodies = bodies;
        this.profile = profile;
        this.maxOrders = maxOrders <= 0 ? Long.MAX_VALUE : maxOrders;
        this.requestTimeout = requestTimeout;
        this.retryGrace = retryGrace;
        this.inFlight = new Semaphore(maxInFlight);
        this.retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "rush-retries");
            thread.setDaemon(true);
            return thread;
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

    /** Latency of accepted orders, from the intended send time of the first attempt (microseconds). */
    public Histogram latencyHistogram() {
        synchronized (latencyTotal) {
            latencyTotal.add(latency.getIntervalHistogram());
            return latencyTotal.copy();
        }
    }

    /** Sends the whole profile, then waits (at most the retry grace) for what is still outstanding. */
    public void run() {
        startNanos = System.nanoTime();
        long sent = 0;
        outer:
        for (int index = 0; index < profile.segments().size(); index++) {
            RateProfile.Segment segment = profile.segments().get(index);
            long segmentStart = startNanos + profile.offset(index).toNanos();
            long orders = segment.orders();
            double nanosPerOrder = 1e9 / segment.ratePerSecond();
            for (long i = 0; i < orders; i++) {
                if (stopped || sent >= maxOrders) {
                    break outer;
                }
                long intended = segmentStart + Math.round(i * nanosPerOrder);
                waitUntil(intended);
                if (stopped) {
                    break outer;
                }
                if (!inFlight.tryAcquire()) {
                    counters.inFlightLimitHits.increment();
                    inFlight.acquireUninterruptibly();
                }
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
                send(new Order(UUID.randomUUID().toString(), bodies == null ? null : bodies.get(), intended, 0));
                sent++;
            }
        }
        lastSendDeadline = System.nanoTime() + retryGrace.toNanos();
        awaitOutstanding();
    }

    private void awaitOutstanding() {
        long deadline = lastSendDeadline + requestTimeout.toNanos();
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        retries.shutdownNow();
    }

    private static void waitUntil(long nanos) {
        long remaining;
        while ((remaining = nanos - System.nanoTime()) > 0) {
            // park for most of the wait, spin the last bit: parkNanos overshoots by ~50 µs
            if (remaining > 200_000) {
                LockSupport.parkNanos(remaining - 100_000);
            }
            else {
                Thread.onSpinWait();
            }
        }
    }

    private record Order(String idempotencyKey, byte @Nullable [] body, long intendedNanos, int connectionRetries) {

        Order again() {
            return new Order(idempotencyKey, body, intendedNanos, connectionRetries + 1);
        }
    }

    private void send(Order order) {
        counters.attempts.increment();
        byte[] body = order.body();
        HttpRequest request = body == null ? HttpRequest.newBuilder(ordersUri).timeout(requestTimeout).GET().build()
                : HttpRequest.newBuilder(ordersUri)
                        .timeout(requestTimeout)
                        .header("Content-Type", "application/json")
                        .header("Idempotency-Key", order.idempotencyKey())
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build();
        try {
            http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .whenComplete((response, failure) -> completed(order, response, failure));
        }
        catch (RuntimeException ex) {
            completed(order, null, ex);
        }
    }

    private void completed(Order order, HttpResponse<Void> response, Throwable failure) {
        inFlight.release();
        if (failure != null) {
            Throwable cause = failure.getCause() != null && failure instanceof java.util.concurrent.CompletionException
                    ? failure.getCause() : failure;
            if (cause instanceof HttpTimeoutException) {
                counters.timeouts.increment();
            }
            else if (cause instanceof IOException && !(cause instanceof java.net.ConnectException)
                    && order.connectionRetries() == 0) {
                // a pooled keep-alive connection the server had just closed: the request may not have been
                // read. The Idempotency-Key makes sending it again safe, so the outcome becomes known.
                counters.reconnects.increment();
                try {
                    retries.execute(() -> resend(order.again(), false));
                    return;
                }
                catch (java.util.concurrent.RejectedExecutionException ex) {
                    counters.errors.increment();
                }
            }
            else {
                counters.errors.increment();
                if (counters.errorKinds.size() < 10) {
                    counters.errorKinds.computeIfAbsent(cause.getClass().getSimpleName() + ": " + cause.getMessage(),
                            kind -> new LongAdder()).increment();
                }
            }
            outstanding.decrementAndGet();
            return;
        }
        int status = response.statusCode();
        if (status == 201 || status == 200) {
            counters.accepted.increment();
            long micros = TimeUnit.NANOSECONDS.toMicros(Math.max(0, System.nanoTime() - order.intendedNanos()));
            latency.recordValue(Math.min(micros, TimeUnit.MINUTES.toMicros(10)));
            outstanding.decrementAndGet();
        }
        else if (status == 429) {
            counters.throttled.increment();
            Duration wait = retryAfter(response.headers().firstValue("Retry-After"));
            if (System.nanoTime() + wait.toNanos() > lastSendDeadline || retries.isShutdown()) {
                counters.gaveUp.increment();
                outstanding.decrementAndGet();
                return;
            }
            try {
                retries.schedule(() -> resend(order, true), wait.toMillis(), TimeUnit.MILLISECONDS);
            }
            catch (java.util.concurrent.RejectedExecutionException ex) {
                counters.gaveUp.increment();
                outstanding.decrementAndGet();
            }
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
        if (!inFlight.tryAcquire()) {
            retries.schedule(() -> resend(order, afterThrottling), 5, TimeUnit.MILLISECONDS);
            return;
        }
        if (afterThrottling) {
            counters.retried.increment();
        }
        send(order);
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
