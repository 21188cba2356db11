package dev.lunchrush.reportreplayer.report;

import java.util.HashSet;
import java.util.Set;

/**
 * An exact count of distinct texts, made for the day's customers: a replay looks up every order's customer, and
 * most are already known. A text of at most {@value #PACKED_LENGTH} Latin-1 characters (the seed's {@code c-12345})
 * is packed into one {@code long} and kept in an open-addressing table of longs at most 70% full, so that a lookup
 * reads one slot or a few neighbours of one small array; any other text goes to a {@link HashSet}. A text is in
 * exactly one of the two, so their sizes add up to the count. Not thread-safe.
 */
final class DistinctTexts {

    /** Characters a packed text holds: seven bytes of characters, one of length. */
    static final int PACKED_LENGTH = 7;

    private static final int FIRST_CAPACITY = 1 << 10;

    /** Slots of packed texts, 0 for an empty one (a packed text is never 0: its top byte is its length plus one). */
    private long[] slots = new long[FIRST_CAPACITY];
    private int packedCount;
    private final Set<String> others = new HashSet<>();

    void add(String text) {
        long packed = pack(text);
        if (packed == 0) {
            others.add(text);
        }
        else {
            addPacked(packed);
        }
    }

    /** Adds every text of {@code other}. */
    void addAll(DistinctTexts other) {
        for (long packed : other.slots) {
            if (packed != 0) {
                addPacked(packed);
            }
        }
        others.addAll(other.others);
    }

    long size() {
        return (long) packedCount + others.size();
    }

    private void addPacked(long packed) {
        int mask = slots.length - 1;
        int slot = spread(packed) & mask;
        while (true) {
            long held = slots[slot];
            if (held == packed) {
                return;
            }
            if (held == 0) {
                slots[slot] = packed;
                if (++packedCount > slots.length / 10 * 7) {
                    grow();
                }
                return;
            }
            slot = (slot + 1) & mask;
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long packed : old) {
            if (packed != 0) {
                int slot = spread(packed) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = packed;
            }
        }
    }

    /** The text's length plus one in the top byte and its characters below; 0 when it does not fit. */
    static long pack(String text) {
        int length = text.length();
        if (length > PACKED_LENGTH) {
            return 0;
        }
        long packed = length + 1L;
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c > 0xFF) {
                return 0;
            }
            packed = (packed << 8) | c;
        }
        // the length byte ends up on top for every length: shift the short ones up to the same place
        return packed << (8 * (PACKED_LENGTH - length));
    }

    /** Mixes every bit of the packed text into the low ones the table's mask keeps (a 64-bit finalizer). */
    private static int spread(long packed) {
        long h = packed * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32) ^ (h >>> 47));
    }
}
