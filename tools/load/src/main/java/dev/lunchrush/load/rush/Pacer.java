package dev.lunchrush.load.rush;

import java.util.concurrent.CountDownLatch;

import io.netty.channel.EventLoop;
import org.jspecify.annotations.Nullable;

import dev.lunchrush.lesson.RateProfile;

/**
 * The open loop's clock, on the client's event loop: the i-th order of a segment of the profile is due at the
 * segment's start + i / rate, whatever happened to the orders before it. When its time comes, every order due by
 * then is handed to {@link Sends#send} (never before its time; after it when the loop was busy), and an alarm is set
 * for the next ({@link Alarms}: the loop wakes once per due time, without polling). At most {@code maxInFlight}
 * orders are out at once, the retries' included ({@link #tryTake}, {@link #release}): at that limit the schedule
 * waits for an order to finish and says so once; the orders behind it then leave late, which the caller counts.
 * One profile per pacer.
 */
final class Pacer {

    /** Where the due orders go; called on the event loop. */
    interface Sends {

        /** The next order, due at {@code intendedNanos} ({@link System#nanoTime()}), leaves now; its slot is taken. */
        void send(long intendedNanos);

        /** The schedule stopped at the in-flight limit (once per stop). */
        void limitReached();
    }

    private final EventLoop loop;
    private final Alarms alarms;
    private final RateProfile profile;
    private final long maxOrders;
    private final int maxInFlight;
    private final Sends sends;
    private final Runnable pump = this::pump;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile boolean stopped;
    private volatile @Nullable Throwable failure;
    private volatile long startNanos;

    // where the schedule is: touched on the event loop only (pump(), one call at a time)
    private int segmentIndex;
    private long segmentStart;
    private long segmentOrders;
    private double nanosPerOrder;
    private long indexInSegment;
    private long sent;
    private int inFlight;
    private boolean limitCounted;
    /** pump() stopped at the in-flight limit; the next order to finish starts it again. */
    private boolean waitingForSlot;
    private Alarms.@Nullable Alarm alarm;

    /** @param maxOrders at most this many orders in all ({@code 0}: the whole profile) */
    Pacer(EventLoop loop, Alarms alarms, RateProfile profile, long maxOrders, int maxInFlight, Sends sends) {
        this.loop = loop;
        this.alarms = alarms;
        this.profile = profile;
        this.maxOrders = maxOrders <= 0 ? Long.MAX_VALUE : maxOrders;
        this.maxInFlight = maxInFlight;
        this.sends = sends;
    }

    /** Starts the schedule now (from any thread); the first order is due at once. */
    void start() {
        startNanos = System.nanoTime();
        segmentIndex = -1;
        nextSegment();
        loop.execute(() -> {
            alarm = alarms.alarm(pump);
            pump();
        });
    }

    /** When the schedule started ({@link System#nanoTime()}). */
    long startNanos() {
        return startNanos;
    }

    /** Sends no more orders (from any thread); those out finish. */
    void stop() {
        stopped = true;
        done.countDown();
    }

    boolean stopped() {
        return stopped;
    }

    /** Until every order of the profile has left, or the schedule was stopped or failed. */
    void awaitDone() throws InterruptedException {
        done.await();
    }

    /** What made the schedule fail, if it did: it stopped there. */
    @Nullable Throwable failure() {
        return failure;
    }

    /** A slot for an order sent again, if one is free; on the loop. */
    boolean tryTake() {
        if (inFlight >= maxInFlight) {
            return false;
        }
        inFlight++;
        return true;
    }

    /** An order finished (or waits for its retry) and gives its slot back; on the loop. */
    void release() {
        inFlight--;
        if (waitingForSlot) {
            waitingForSlot = false;
            loop.execute(pump);
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

    private void pump() {
        try {
            sendDue();
        }
        catch (RuntimeException | Error ex) {
            failure = ex;
            stop();
        }
    }

    private void sendDue() {
        while (true) {
            if (stopped || sent >= maxOrders || segmentIndex >= profile.segments().size()) {
                alarms.release(alarm);
                done.countDown();
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
                    sends.limitReached();
                }
                waitingForSlot = true;
                return;
            }
            limitCounted = false;
            inFlight++;
            indexInSegment++;
            sent++;
            sends.send(intended);
        }
    }
}
