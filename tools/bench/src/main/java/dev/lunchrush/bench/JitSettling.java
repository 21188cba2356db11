package dev.lunchrush.bench;

import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * Whether the JVMs of the stack (and this one, the driver's) have stopped compiling: the ticks of their JIT compiler
 * threads since the last question, against {@link #SETTLED_SHARE} of one core. A JVM compiles for minutes after a
 * start or after new code becomes hot (an act switched, a first rush), and that compiling is a cost of the start,
 * not of an order: the CPU section warms up until it has faded, so that its windows measure the steady rush.
 */
final class JitSettling {

    /** At most 2% of one core for all the JVMs' compilers together over the last part of the warm-up. */
    static final double SETTLED_SHARE = 0.02;

    private final LongSupplier compilerTicks;
    private final long hz;
    private final String name;
    private final PrintWriter out;
    private long lastTicks;
    private long lastNanos;

    /** {@code compilerTicks}: the ticks of every watched JVM's compiler threads together, as they stand. */
    JitSettling(LongSupplier compilerTicks, long hz, String name, PrintWriter out) {
        this.compilerTicks = compilerTicks;
        this.hz = hz;
        this.name = name;
        this.out = out;
        this.lastTicks = compilerTicks.getAsLong();
        this.lastNanos = System.nanoTime();
    }

    /** The compilers' share of one core since the last call (or since this was made), and whether it is low enough. */
    boolean settled() {
        long ticks = compilerTicks.getAsLong();
        long nanos = System.nanoTime();
        double seconds = (nanos - lastNanos) / 1e9;
        double share = share(ticks - lastTicks, hz, seconds);
        lastTicks = ticks;
        lastNanos = nanos;
        boolean settled = share <= SETTLED_SHARE;
        out.println("%s: the JIT compilers at %.1f%% of a core over the last %.0f s of the warm-up: %s".formatted(name,
                100 * share, seconds, settled ? "settled" : "warming up on"));
        out.flush();
        return settled;
    }

    static double share(long ticks, long hz, double seconds) {
        return seconds <= 0 ? 0 : ticks / (double) hz / seconds;
    }
}
