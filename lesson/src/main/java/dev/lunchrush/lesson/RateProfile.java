package dev.lunchrush.lesson;

import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * How many orders per second, for how long: a list of constant-rate segments, and the simulated clock
 * that maps wall time to the lesson's time of day (the lunch rush starts at 12:20; at speed N one wall
 * second is N lesson seconds).
 */
public record RateProfile(String name, List<Segment> segments, double speed, LocalTime simulatedStart) {

    static final LocalTime LUNCH_START = LocalTime.of(12, 20);

    /** The lesson: 400 orders/s from 12:20 to 12:35, then 100/s until the backlog drained near 12:50. */
    static final double LUNCH_PEAK_RATE = 400;
    static final double LUNCH_AFTER_RATE = 100;
    static final Duration LUNCH_PEAK = Duration.ofMinutes(15);
    static final Duration LUNCH_AFTER = Duration.ofMinutes(15);

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    public RateProfile {
        segments = List.copyOf(segments);
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a profile needs at least one segment");
        }
        if (!(speed > 0)) {
            throw new IllegalArgumentException("the speed factor must be positive, not " + speed);
        }
    }

    /** A segment of constant rate. */
    public record Segment(String label, double ratePerSecond, Duration duration) {

        public Segment {
            if (!(ratePerSecond > 0)) {
                throw new IllegalArgumentException("a rate must be positive, not " + ratePerSecond);
            }
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("a duration must be positive, not " + duration);
            }
        }

        /** Orders in this segment: rate × duration, rounded. */
        public long orders() {
            return Math.round(ratePerSecond * seconds());
        }

        public double seconds() {
            return duration.toNanos() / 1e9;
        }
    }

    /** The lesson's lunch rush at speed N: rates × N, durations ÷ N. */
    public static RateProfile lunch(double speed) {
        return new RateProfile("lunch", List.of(
                new Segment("rush 12:20-12:35", LUNCH_PEAK_RATE * speed, divide(LUNCH_PEAK, speed)),
                new Segment("after 12:35", LUNCH_AFTER_RATE * speed, divide(LUNCH_AFTER, speed))), speed, LUNCH_START);
    }

    public static RateProfile constant(double rate, Duration duration, double speed) {
        return new RateProfile("constant", List.of(new Segment("constant", rate * speed, divide(duration, speed))),
                speed, LUNCH_START);
    }

    /** A rate, then another: the step and custom profiles. */
    public static RateProfile twoSteps(String name, double rate, Duration duration, double thenRate, Duration thenDuration,
            double speed) {
        List<Segment> segments = new ArrayList<>();
        segments.add(new Segment("first", rate * speed, divide(duration, speed)));
        segments.add(new Segment("then", thenRate * speed, divide(thenDuration, speed)));
        return new RateProfile(name, segments, speed, LUNCH_START);
    }

    static Duration divide(Duration duration, double speed) {
        return Duration.ofNanos(Math.round(duration.toNanos() / speed));
    }

    public Duration totalDuration() {
        return segments.stream().map(Segment::duration).reduce(Duration.ZERO, Duration::plus);
    }

    public long totalOrders() {
        return segments.stream().mapToLong(Segment::orders).sum();
    }

    /** Where segment {@code index} starts, from the start of the rush. */
    public Duration offset(int index) {
        Duration offset = Duration.ZERO;
        for (int i = 0; i < index; i++) {
            offset = offset.plus(segments.get(i).duration());
        }
        return offset;
    }

    /** The segment running at {@code elapsed}, or the last one. */
    public int segmentAt(Duration elapsed) {
        Duration end = Duration.ZERO;
        for (int i = 0; i < segments.size(); i++) {
            end = end.plus(segments.get(i).duration());
            if (elapsed.compareTo(end) < 0) {
                return i;
            }
        }
        return segments.size() - 1;
    }

    public double rateAt(Duration elapsed) {
        return elapsed.compareTo(totalDuration()) >= 0 ? 0 : segments.get(segmentAt(elapsed)).ratePerSecond();
    }

    /** The lesson's time of day at {@code elapsed} wall time. */
    public LocalTime simulatedTime(Duration elapsed) {
        return simulatedStart.plusNanos(Math.round(elapsed.toNanos() * speed));
    }

    public String clock(Duration elapsed) {
        return simulatedTime(elapsed).format(CLOCK);
    }

    /** The lesson's time of day {@code seconds} of wall time into the rush. */
    public String clock(double seconds) {
        return clock(Duration.ofNanos(Math.round(seconds * 1e9)));
    }

    /** The rush's first line: each segment's rate, length and clock times, and the orders in all. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < segments.size(); i++) {
            Segment segment = segments.get(i);
            Duration from = offset(i);
            parts.add("%s/s for %s s (%s-%s)".formatted(Figures.trim(segment.ratePerSecond()),
                    Figures.trim(segment.seconds()), clock(from), clock(from.plus(segment.duration()))));
        }
        return "Rush '" + name + "' at speed " + Figures.trim(speed) + ": " + String.join(", then ", parts)
                + "; %,d orders.".formatted(totalOrders());
    }
}
