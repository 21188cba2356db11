package dev.lunchrush.load.rush;

import org.HdrHistogram.Histogram;

/** The driver's latencies as the rush reports them: histograms of microseconds, read in milliseconds. */
final class Latencies {

    private Latencies() {
    }

    /** A percentile of a histogram of microseconds, in milliseconds; 0 for an empty one. */
    static double millis(Histogram histogram, double percentile) {
        return histogram.getTotalCount() == 0 ? 0 : histogram.getValueAtPercentile(percentile) / 1000.0;
    }
}
