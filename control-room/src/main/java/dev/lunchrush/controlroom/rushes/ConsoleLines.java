package dev.lunchrush.controlroom.rushes;

import java.io.Writer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * What a rush prints, kept as lines (the last {@code max} of them): the live table's rows every few seconds and the
 * report, exactly as {@code ./demo rush} prints them.
 */
final class ConsoleLines extends Writer {

    private final int max;
    private final Deque<String> lines = new ArrayDeque<>();
    private final StringBuilder current = new StringBuilder();

    ConsoleLines(int max) {
        this.max = max;
    }

    @Override
    public synchronized void write(char[] buffer, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            char c = buffer[i];
            if (c == '\n') {
                add(current.toString());
                current.setLength(0);
            }
            else if (c != '\r') {
                current.append(c);
            }
        }
    }

    private void add(String line) {
        lines.addLast(line);
        while (lines.size() > max) {
            lines.removeFirst();
        }
    }

    synchronized List<String> lines() {
        List<String> all = new java.util.ArrayList<>(lines);
        if (!current.isEmpty()) {
            all.add(current.toString());
        }
        return all;
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
}
