package dev.lunchrush.reportreplayer.replay;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/** One replay's live state: written by its reading thread, read by the web and the metrics. */
class Replay {

    enum State { RUNNING, DONE, FAILED }

    private final String id;
    private final LocalDate date;
    private final ZoneId zone;
    private final long expected;
    private final Instant startedAt;
    private final long startedNanos = System.nanoTime();
    private final AtomicLong read = new AtomicLong();
    private final AtomicLong orders = new AtomicLong();
    private final AtomicLong poison = new AtomicLong();
    private volatile State state = State.RUNNING;
    private volatile long elapsedNanos = -1;
    private volatile @Nullable Instant finishedAt;
    private volatile @Nullable String error;

    Replay(String id, LocalDate date, ZoneId zone, long expected, Instant startedAt) {
        this.id = id;
        this.date = date;
        this.zone = zone;
        this.expected = expected;
        this.startedAt = startedAt;
    }

    String id() {
        return id;
    }

    LocalDate date() {
        return date;
    }

    ZoneId zone() {
        return zone;
    }

    String key() {
        return key(date, zone);
    }

    static String key(LocalDate date, ZoneId zone) {
        return date + "|" + zone.getId();
    }

    State state() {
        return state;
    }

    long read() {
        return read.get();
    }

    long expected() {
        return expected;
    }

    long poison() {
        return poison.get();
    }

    Instant startedAt() {
        return startedAt;
    }

    void progress(long recordsRead, long ordersOfTheDay, long poisonRecords) {
        read.addAndGet(recordsRead);
        orders.addAndGet(ordersOfTheDay);
        poison.addAndGet(poisonRecords);
    }

    void done(Instant at) {
        elapsedNanos = System.nanoTime() - startedNanos;
        finishedAt = at;
        state = State.DONE;
    }

    void failed(Instant at, String reason) {
        elapsedNanos = System.nanoTime() - startedNanos;
        finishedAt = at;
        error = reason;
        state = State.FAILED;
    }

    /** Records read per second since the start (over the whole run once finished). */
    double ratePerSecond() {
        long nanos = elapsedNanos >= 0 ? elapsedNanos : System.nanoTime() - startedNanos;
        return nanos <= 0 ? 0 : read.get() * 1e9 / nanos;
    }

    ReplayStatus status() {
        double rate = ratePerSecond();
        long left = Math.max(0, expected - read.get());
        Double secondsLeft = state != State.RUNNING ? Double.valueOf(0) : rate > 0 ? left / rate : null;
        long nanos = elapsedNanos >= 0 ? elapsedNanos : System.nanoTime() - startedNanos;
        return new ReplayStatus(id, date.toString(), zone.getId(), state.name(), read.get(), expected,
                Math.round(rate * 10) / 10.0, secondsLeft == null ? null : Math.round(secondsLeft * 10) / 10.0,
                expected == 0 ? 100.0 : Math.round(read.get() * 1000.0 / expected) / 10.0,
                orders.get(), poison.get(), startedAt, finishedAt, Duration.ofNanos(nanos).toMillis(), error,
                state == State.DONE ? "/api/reports/" + date + "?zone=" + java.net.URLEncoder.encode(zone.getId(),
                        java.nio.charset.StandardCharsets.UTF_8) : null);
    }
}
