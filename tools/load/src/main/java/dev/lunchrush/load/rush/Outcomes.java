package dev.lunchrush.load.rush;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.netty.channel.EventLoop;
import org.jspecify.annotations.Nullable;

/**
 * What becomes of each order once it has left, on the client's event loop. A 429 is sent again after its
 * {@code Retry-After} with the same key and body, so that a throttled order is placed once and only once, until the
 * retry grace after the last first send is over; a request on a kept-alive connection the server had just closed is
 * sent once more (its {@code Idempotency-Key} makes that safe); a 503, a timeout or any other failure is counted and
 * not retried. An order is outstanding from its first send to its outcome, and each attempt holds one of the
 * {@link Pacer}'s in-flight slots.
 */
final class Outcomes {

    private final EventLoop loop;
    private final Pacer pacer;
    private final ConnectionPool target;
    private final DriverCounters counters;
    private final AtomicLong outstanding = new AtomicLong();
    private volatile boolean finished;
    private volatile long lastSendDeadline = Long.MAX_VALUE;

    Outcomes(EventLoop loop, Pacer pacer, ConnectionPool target, DriverCounters counters) {
        this.loop = loop;
        this.pacer = pacer;
        this.target = target;
        this.counters = counters;
    }

    /** Orders not finished yet: in flight or waiting to be retried. */
    long outstanding() {
        return outstanding.get();
    }

    /** The order's first attempt leaves now; its in-flight slot is taken. */
    void first(Order order) {
        outstanding.incrementAndGet();
        send(order);
    }

    /**
     * The last first attempt has left: retries go on for {@code retryGrace}, then what is still out gets a request
     * timeout to finish; whatever is outstanding after that is given up.
     */
    void awaitOutstanding(Duration retryGrace, Duration requestTimeout) {
        lastSendDeadline = System.nanoTime() + retryGrace.toNanos();
        long deadline = lastSendDeadline + requestTimeout.toNanos();
        while (outstanding.get() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        finished = true;
    }

    /** One order, sent once or more: the request of its current attempt, and where its outcome goes. */
    final class Order extends DriverHttp.Exchange {

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

    /** A request that got no answer: timed out, dropped (sent again once), or failed. */
    private void completedWithout(Order order, DriverHttp.Failure kind, Throwable cause) {
        pacer.release();
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
            counters.failedWithoutAnswer(cause);
        }
        outstanding.decrementAndGet();
    }

    private void completed(Order order, int status, @Nullable String retryAfterHeader) {
        pacer.release();
        if (status == 201 || status == 200) {
            counters.accepted(order.intendedNanos);
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
                counters.otherStatus(status);
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
