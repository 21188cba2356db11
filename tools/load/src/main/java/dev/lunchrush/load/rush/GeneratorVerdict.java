package dev.lunchrush.load.rush;

import dev.lunchrush.lesson.RateProfile;

/** Whether the generator held the asked rate: what it achieved, and how late its sends were. */
record GeneratorVerdict(boolean held, double askedRate, double achievedRate, double lagP99Millis) {

    static GeneratorVerdict of(RateProfile profile, OpenLoopDriver driver) {
        DriverCounters counters = driver.counters();
        long sent = counters.scheduled.sum();
        long first = counters.firstSendNanos.get();
        long last = counters.lastSendNanos.get();
        double seconds = (last - first) / 1e9;
        double achieved = sent > 1 && seconds > 0 ? (sent - 1) / seconds : 0;
        double planned = Math.min(seconds, profile.totalDuration().toNanos() / 1e9);
        double asked = planned > 0 ? expectedOrders(profile, planned) / planned : profile.segments().get(0).ratePerSecond();
        double lagP99 = Latencies.millis(driver.lagHistogram(), 99);
        boolean held = (asked == 0 || achieved >= 0.95 * asked) && lagP99 <= OpenLoopDriver.LATE_NANOS / 1e6;
        return new GeneratorVerdict(held, asked, achieved, lagP99);
    }

    private static double expectedOrders(RateProfile profile, double seconds) {
        double remaining = seconds;
        double orders = 0;
        for (RateProfile.Segment segment : profile.segments()) {
            double span = Math.min(remaining, segment.seconds());
            orders += span * segment.ratePerSecond();
            remaining -= span;
            if (remaining <= 0) {
                break;
            }
        }
        return orders;
    }

    String sentence() {
        if (held) {
            return "Generator: held the asked rate (%.0f/s asked, %.0f/s sent; p99 schedule lag %.1f ms)."
                    .formatted(askedRate, achievedRate, lagP99Millis);
        }
        return ("WARNING: the generator did NOT hold the asked rate: %.0f/s asked, %.0f/s sent, p99 schedule lag "
                + "%.1f ms. The figures below are distorted by the generator, not only by the stack "
                + "(try --max-in-flight, fewer other processes, or a lower --speed).")
                .formatted(askedRate, achievedRate, lagP99Millis);
    }
}
