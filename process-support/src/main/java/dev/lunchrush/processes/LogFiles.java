package dev.lunchrush.processes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** The end of a process's log, to show beside a failure: why something did not come up. */
public final class LogFiles {

    private LogFiles() {
    }

    /**
     * The file's last {@code count} lines (fewer when it is shorter), read as a stream, so that a long log is
     * never held whole; bytes that are not UTF-8 are replaced, never an error.
     */
    public static List<String> lastLines(Path file, int count) throws IOException {
        Deque<String> tail = new ArrayDeque<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                tail.addLast(line);
                if (tail.size() > count) {
                    tail.removeFirst();
                }
            }
        }
        return List.copyOf(tail);
    }
}
