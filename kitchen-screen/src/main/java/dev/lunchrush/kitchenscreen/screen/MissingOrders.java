package dev.lunchrush.kitchenscreen.screen;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the orders that never reached the screen from the gaps in each order-service run's sequence
 * numbers. A gap becomes "missing" only after a grace period, because the log's partitions deliver
 * independently and order 1043 may arrive after 1044. An order that turns up after it was counted
 * missing is taken off the list and counted as late.
 */
final class MissingOrders {

    private final long graceMillis;
    private final int listed;
    private final Map<String, Run> runs = new HashMap<>();
    private final Deque<Gap> pending = new ArrayDeque<>();
    private final Deque<MissingOrder> recent = new ArrayDeque<>();
    private long missing;
    private long late;

    MissingOrders(long graceMillis, int listed) {
        this.graceMillis = graceMillis;
        this.listed = listed;
    }

    synchronized void seen(String run, long sequence, long nowMillis) {
        if (sequence <= 0 || sequence > Integer.MAX_VALUE) {
            return;
        }
        Run state = runs.computeIfAbsent(run, r -> new Run());
        int seq = (int) sequence;
        if (seq > state.highest + 1) {
            pending.addLast(new Gap(run, state.highest + 1, seq - 1, nowMillis));
        }
        state.highest = Math.max(state.highest, seq);
        state.seen.set(seq);
        if (state.counted.get(seq)) {
            state.counted.clear(seq);
            missing--;
            late++;
            recent.remove(new MissingOrder(run, sequence));
        }
    }

    /** Turns the gaps older than the grace period into missing orders. */
    synchronized void expire(long nowMillis) {
        while (!pending.isEmpty() && pending.peekFirst().openedAt() + graceMillis <= nowMillis) {
            Gap gap = pending.removeFirst();
            Run state = runs.get(gap.run());
            for (int seq = state.seen.nextClearBit(gap.from()); seq <= gap.to(); seq = state.seen.nextClearBit(seq + 1)) {
                state.counted.set(seq);
                missing++;
                recent.addLast(new MissingOrder(gap.run(), seq));
                if (recent.size() > listed) {
                    recent.removeFirst();
                }
            }
        }
    }

    synchronized long missing() {
        return missing;
    }

    synchronized long late() {
        return late;
    }

    /** The most recent missing orders, newest first. */
    synchronized List<MissingOrder> recent() {
        List<MissingOrder> list = new ArrayList<>(recent);
        java.util.Collections.reverse(list);
        return list;
    }

    private static final class Run {
        final BitSet seen = new BitSet();
        final BitSet counted = new BitSet();
        int highest;
    }

    private record Gap(String run, int from, int to, long openedAt) {
    }
}
