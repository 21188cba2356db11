package dev.lunchrush.kitchenscreen.screen;

import java.util.HashMap;
import java.util.Map;

/**
 * The order ids of one journal segment, each with the file position of the batch it was written in.
 * Order ids are UUIDs (version 7) from the order service: those are kept as two longs in an
 * open-addressing table (20 bytes a slot, at most 3/4 full: 27 to 53 bytes an id), any other id (tests,
 * other producers) in a map.
 */
final class OrderIdSet {

    private static final int MIN_CAPACITY = 1024;

    private long[] high = new long[MIN_CAPACITY];
    private long[] low = new long[MIN_CAPACITY];
    /** the batch's position in the segment file, +1 (0: empty slot) */
    private int[] positions = new int[MIN_CAPACITY];
    private int uuids;
    private final Map<String, Integer> others = new HashMap<>();

    int size() {
        return uuids + others.size();
    }

    /** The position of the batch that holds this id, or -1 if it is not in the set. */
    int position(String orderId) {
        if (!isUuid(orderId)) {
            return others.getOrDefault(orderId, -1);
        }
        return position(high(orderId), low(orderId));
    }

    /**
     * The position of the batch that holds the UUID with these halves ({@link #high}, {@link #low}), or -1: for
     * a look-up in several sets, the id parsed once.
     */
    int position(long hi, long lo) {
        int mask = positions.length - 1;
        for (int slot = slot(hi, lo, mask); positions[slot] != 0; slot = (slot + 1) & mask) {
            if (high[slot] == hi && low[slot] == lo) {
                return positions[slot] - 1;
            }
        }
        return -1;
    }

    /** Adds the id (which must not be in the set yet) with its batch's position. */
    void add(String orderId, int position) {
        if (!isUuid(orderId)) {
            others.put(orderId, position);
            return;
        }
        if ((uuids + 1) * 4L > positions.length * 3L) {
            grow();
        }
        insert(hexLong(orderId, 0), hexLong(orderId, 19), position + 1);
        uuids++;
    }

    private void insert(long hi, long lo, int positionPlusOne) {
        int mask = positions.length - 1;
        int slot = slot(hi, lo, mask);
        while (positions[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        high[slot] = hi;
        low[slot] = lo;
        positions[slot] = positionPlusOne;
    }

    private void grow() {
        long[] oldHigh = high;
        long[] oldLow = low;
        int[] oldPositions = positions;
        high = new long[oldPositions.length * 2];
        low = new long[oldPositions.length * 2];
        positions = new int[oldPositions.length * 2];
        for (int i = 0; i < oldPositions.length; i++) {
            if (oldPositions[i] != 0) {
                insert(oldHigh[i], oldLow[i], oldPositions[i]);
            }
        }
    }

    private static int slot(long hi, long lo, int mask) {
        long h = (hi ^ Long.rotateLeft(lo, 29)) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** 8-4-4-4-12 lower- or upper-case hex digits. */
    static boolean isUuid(String id) {
        if (id.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = id.charAt(i);
            boolean dash = i == 8 || i == 13 || i == 18 || i == 23;
            if (dash ? c != '-' : Character.digit(c, 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The first half of a UUID id ({@link #isUuid}). */
    static long high(String uuid) {
        return hexLong(uuid, 0);
    }

    /** The second half of a UUID id ({@link #isUuid}). */
    static long low(String uuid) {
        return hexLong(uuid, 19);
    }

    /** The 16 hex digits from {@code from} on, dashes skipped: the UUID's first or second half. */
    private static long hexLong(String id, int from) {
        long value = 0;
        int digits = 0;
        for (int i = from; digits < 16; i++) {
            char c = id.charAt(i);
            if (c != '-') {
                value = (value << 4) | Character.digit(c, 16);
                digits++;
            }
        }
        return value;
    }
}
