package dev.lunchrush.bench;

import java.util.List;

/**
 * Heap after GC over a run, from (seconds, MB) samples: first, last, lowest and highest, and the least-squares
 * slope over the second half (after the first collections have settled what stays).
 */
record HeapTrend(int samples, double firstMb, double lastMb, double minMb, double maxMb, double slopeMbPerMinute) {

    static HeapTrend of(List<double[]> samples) {
        List<double[]> points = samples.stream().filter(point -> point[1] > 0).toList();
        if (points.isEmpty()) {
            return new HeapTrend(0, 0, 0, 0, 0, 0);
        }
        List<double[]> late = points.subList(points.size() / 2, points.size());
        double meanX = late.stream().mapToDouble(p -> p[0]).average().orElse(0);
        double meanY = late.stream().mapToDouble(p -> p[1]).average().orElse(0);
        double covariance = late.stream().mapToDouble(p -> (p[0] - meanX) * (p[1] - meanY)).sum();
        double variance = late.stream().mapToDouble(p -> (p[0] - meanX) * (p[0] - meanX)).sum();
        double slopePerSecond = variance == 0 ? 0 : covariance / variance;
        return new HeapTrend(points.size(), points.get(0)[1], points.get(points.size() - 1)[1],
                points.stream().mapToDouble(p -> p[1]).min().orElse(0), points.stream().mapToDouble(p -> p[1]).max().orElse(0),
                slopePerSecond * 60);
    }
}
