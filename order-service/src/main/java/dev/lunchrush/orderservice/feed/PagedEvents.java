package dev.lunchrush.orderservice.feed;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The feed's events, oldest first, packed into 1 MiB pages on the heap instead of one small array
 * each. Each page is one allocation that must find room as a whole: when the heap has no room for the
 * next page, the JVM throws OutOfMemoryError there and then, instead of limping on in back-to-back
 * collections that each free a few kilobytes (what thousands of tiny arrays make it do). The memory
 * kept is the events' bytes plus 4 bytes each, so the lesson's arithmetic (1 KB an event) holds.
 */
final class PagedEvents {

    static final int PAGE_BYTES = 1 << 20;

    private final ArrayDeque<Page> pages = new ArrayDeque<>();
    private int size;

    void append(byte[] event) {
        Page tail = pages.peekLast();
        if (tail == null || !tail.fits(event.length)) {
            tail = new Page(Math.max(PAGE_BYTES, event.length + Integer.BYTES));
            pages.addLast(tail);
        }
        tail.write(event);
        size++;
    }

    /** Removes and returns the oldest event, or null when there is none. */
    byte[] pollFirst() {
        Page head = pages.peekFirst();
        if (head == null || size == 0) {
            return null;
        }
        byte[] event = head.read();
        size--;
        if (head.isFullyRead()) {
            if (pages.size() > 1) {
                pages.pollFirst();
            }
            else {
                head.clear();
            }
        }
        return event;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    private static final class Page {

        private final ByteBuffer buffer;
        private int readPosition;

        Page(int capacity) {
            buffer = ByteBuffer.allocate(capacity);
        }

        boolean fits(int length) {
            return buffer.remaining() >= length + Integer.BYTES;
        }

        void write(byte[] event) {
            buffer.putInt(event.length).put(event);
        }

        byte[] read() {
            int length = buffer.getInt(readPosition);
            byte[] event = new byte[length];
            buffer.get(readPosition + Integer.BYTES, event);
            readPosition += Integer.BYTES + length;
            return event;
        }

        boolean isFullyRead() {
            return readPosition == buffer.position();
        }

        void clear() {
            buffer.clear();
            readPosition = 0;
        }
    }
}
