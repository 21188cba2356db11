package dev.lunchrush.load.rush;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;

/**
 * Timers on an NIO event loop for tasks due at a nanosecond. NIO's selector waits whole milliseconds, rounded to the
 * nearest: a Netty timer due at an arbitrary nanosecond wakes the loop up to half a millisecond early, and the loop
 * then polls the selector without blocking until it is due. An {@link Alarm} is set a whole number of milliseconds
 * from the time it is set, so the selector's wait ends at or after it; and as any I/O on the loop makes that no
 * longer true, the loop's I/O calls {@link #refresh()} after each batch, which sets the alarms again from then. An
 * alarm so runs its task at most a millisecond after its due time (half of one on average), plus the machine's
 * wake-up delay. Everything but the constructor runs on the loop.
 */
final class Alarms {

    private final EventLoop loop;
    private final List<Alarm> alarms = new ArrayList<>();

    Alarms(EventLoop loop) {
        this.loop = loop;
    }

    /** A timer for {@code task}, not set yet. */
    Alarm alarm(Runnable task) {
        Alarm alarm = new Alarm(task);
        alarms.add(alarm);
        return alarm;
    }

    /** Cancels the alarm and forgets it. */
    void release(Alarm alarm) {
        alarm.cancel();
        alarms.remove(alarm);
    }

    /** After a batch of I/O on the loop: the alarms set again from now. */
    void refresh() {
        if (!alarms.isEmpty()) {
            long now = System.nanoTime();
            for (int i = 0; i < alarms.size(); i++) {
                alarms.get(i).refresh(now);
            }
        }
    }

    /** One timer: its task runs once per {@link #set}, at or after the time it was set for. */
    final class Alarm {

        private final Runnable task;
        private final Runnable fire = this::fire;
        private @Nullable ScheduledFuture<?> timer;
        private long dueNanos;
        private long deadline;

        private Alarm(Runnable task) {
            this.task = task;
        }

        /** Runs the task at or after {@code dueNanos} ({@link System#nanoTime()}); replaces an earlier setting. */
        void set(long dueNanos) {
            this.dueNanos = dueNanos;
            arm(System.nanoTime());
        }

        void cancel() {
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
        }

        private void arm(long now) {
            if (timer != null) {
                timer.cancel(false);
            }
            long millis = Math.max(0, (dueNanos - now + 999_999) / 1_000_000);
            deadline = now + millis * 1_000_000;
            timer = loop.schedule(fire, millis, TimeUnit.MILLISECONDS);
        }

        /**
         * The selector's wait from {@code now} is {@code deadline - now} rounded to the nearest millisecond: when that
         * rounds down, it would end before the deadline and the loop would poll; the timer is then set again from now.
         */
        private void refresh(long now) {
            if (timer != null && (deadline - now) % 1_000_000 < 600_000) {
                arm(now);
            }
        }

        private void fire() {
            timer = null;
            task.run();
        }
    }
}
