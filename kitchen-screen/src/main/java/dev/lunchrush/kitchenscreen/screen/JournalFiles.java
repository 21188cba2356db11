package dev.lunchrush.kitchenscreen.screen;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shown journal's segment files in its folder, {@code shown-<start millis>.journal}: which exist, the one being
 * appended to, and frames ({@link JournalFrames}) written each with one {@code write} and read back whole. A frame
 * that a crash left incomplete or garbled is cut off when its file is read, so that appending goes on after the
 * last whole frame. Not thread-safe: {@link ShownJournal} holds its lock around every call.
 */
final class JournalFiles implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JournalFiles.class);

    private static final String NAME_PREFIX = "shown-";
    private static final String NAME_SUFFIX = ".journal";

    /** Receives each whole frame of a file, with where it starts. */
    interface FrameReader {

        void frame(int position, byte[] payload) throws IOException;
    }

    private final Path dir;
    private FileChannel current;
    private Path currentFile;

    JournalFiles(Path dir) {
        this.dir = dir.toAbsolutePath();
        try {
            Files.createDirectories(this.dir);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot create the data folder " + this.dir, ex);
        }
    }

    /** The segment files there are, oldest first. */
    List<Path> list() {
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(file -> file.getFileName().toString().matches("shown-\\d+\\.journal")).sorted().toList();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The start, in epoch milliseconds, that a segment file is named after. */
    static long startOf(Path file) {
        String name = file.getFileName().toString();
        return Long.parseLong(name.substring(NAME_PREFIX.length(), name.length() - NAME_SUFFIX.length()));
    }

    /** The file of the segment that starts then. */
    Path fileFor(long startMillis) {
        return dir.resolve(NAME_PREFIX + "%015d".formatted(startMillis) + NAME_SUFFIX);
    }

    /** Hands every whole frame of {@code file} to {@code reader}, in order, and cuts off what follows the last one. */
    void read(Path file, FrameReader reader) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            ByteBuffer head = ByteBuffer.allocate(JournalFrames.HEAD_BYTES);
            long position = 0;
            while (position < size) {
                head.clear();
                if (channel.read(head, position) < JournalFrames.HEAD_BYTES || head.getInt(0) <= 0
                        || position + JournalFrames.HEAD_BYTES + head.getInt(0) > size) {
                    break;
                }
                ByteBuffer payload = ByteBuffer.allocate(head.getInt(0));
                channel.read(payload, position + JournalFrames.HEAD_BYTES);
                if (!JournalFrames.intact(head, payload.array())) {
                    break;
                }
                reader.frame((int) position, payload.array());
                position += JournalFrames.HEAD_BYTES + payload.capacity();
            }
            if (position < size) {
                log.warn("{}: cut off {} bytes after {} (a write cut short)", file, size - position, position);
                channel.truncate(position);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    /** The payload of the frame that starts at {@code position}. */
    byte[] readAt(Path file, int position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer head = ByteBuffer.allocate(JournalFrames.HEAD_BYTES);
            channel.read(head, position);
            ByteBuffer payload = ByteBuffer.allocate(head.getInt(0));
            channel.read(payload, position + JournalFrames.HEAD_BYTES);
            return payload.array();
        }
    }

    /** Creates {@code file} (or opens it, if it is there) and appends to it from now on. */
    void create(Path file) throws IOException {
        closeCurrent();
        current = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        current.position(current.size());
        currentFile = file;
    }

    /** Appends to {@code file} from now on. */
    void openForAppend(Path file) {
        if (file.equals(currentFile)) {
            return;
        }
        closeCurrent();
        try {
            current = FileChannel.open(file, StandardOpenOption.WRITE);
            current.position(current.size());
            currentFile = file;
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot open the journal segment " + file, ex);
        }
    }

    /** Writes one frame of {@code payload} to the file appended to, with one write; returns where it starts. */
    int append(byte[] payload) throws IOException {
        ByteBuffer frame = JournalFrames.frame(payload);
        long position = current.position();
        while (frame.hasRemaining()) {
            current.write(frame);
        }
        return (int) position;
    }

    /** Deletes a segment's file, closing it first if it is the one appended to. */
    void delete(Path file) {
        if (file.equals(currentFile)) {
            closeCurrent();
        }
        try {
            Files.deleteIfExists(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Bytes of these files on disk now; a file deleted meanwhile counts 0. */
    static long bytes(Iterable<Path> files) {
        long total = 0;
        for (Path file : files) {
            try {
                total += Files.size(file);
            }
            catch (IOException ex) {
                // deleted meanwhile
            }
        }
        return total;
    }

    private void closeCurrent() {
        if (current != null) {
            try {
                current.close();
            }
            catch (IOException ex) {
                log.warn("closing {}: {}", currentFile, ex.toString());
            }
            current = null;
            currentFile = null;
        }
    }

    @Override
    public void close() {
        closeCurrent();
    }
}
