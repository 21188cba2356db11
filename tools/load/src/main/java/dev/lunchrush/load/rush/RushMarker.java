package dev.lunchrush.load.rush;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.localstack.access.DemoException;

/**
 * One rush at a time on a stack of {@code ./demo up}: a rush, the command line's or the control room's, holds the
 * file {@code .run/rush} while it runs (created atomically; the holder's pid, its process's start and who it is), and
 * one that finds it held by a live process does not start. A file left by a process that is gone (or whose pid now
 * belongs to another process) is no one's. Where there is no {@code .run} folder (a stack in Docker, a command run
 * elsewhere), nobody can see anybody's rush: the claim holds nothing.
 */
public final class RushMarker implements AutoCloseable {

    private final @Nullable Path file;
    private final String content;

    private RushMarker(@Nullable Path file, String content) {
        this.file = file;
        this.content = content;
    }

    /** Another rush holds the stack. */
    public static final class Held extends DemoException {

        private final String holder;

        Held(String holder) {
            super("another rush is running on this stack (" + holder + "): wait for it to end, or stop it");
            this.holder = holder;
        }

        /** Who holds it: {@code ./demo rush (pid 123, since 12:04:05)}. */
        public String holder() {
            return holder;
        }
    }

    /** Holds the stack under {@code root} for {@code who}; {@link Held} when a live process holds it. */
    public static RushMarker claim(Path root, String who) {
        Path run = root.resolve(".run");
        ProcessHandle self = ProcessHandle.current();
        String content = self.pid() + " " + started(self).map(Instant::toString).orElse("-") + " " + who;
        if (!Files.isDirectory(run)) {
            return new RushMarker(null, content);
        }
        Path file = run.resolve("rush");
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                Files.writeString(Files.createFile(file), content);
                return new RushMarker(file, content);
            }
            catch (FileAlreadyExistsException ex) {
                Optional<String> holder = holder(file);
                if (holder.isPresent()) {
                    throw new Held(holder.get());
                }
                delete(file);
            }
            catch (IOException ex) {
                throw new UncheckedIOException("cannot write " + file, ex);
            }
        }
        throw new Held("another process claimed it at the same moment");
    }

    /** Who holds the stack under {@code root} now, if a live process does. */
    public static Optional<String> heldBy(Path root) {
        return holder(root.resolve(".run").resolve("rush"));
    }

    private static Optional<String> holder(Path file) {
        String text;
        try {
            text = Files.readString(file).strip();
        }
        catch (NoSuchFileException ex) {
            return Optional.empty();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
        String[] parts = text.split(" ", 3);
        if (parts.length < 3) {
            return Optional.empty();
        }
        Optional<ProcessHandle> process;
        try {
            process = ProcessHandle.of(Long.parseLong(parts[0]));
        }
        catch (NumberFormatException ex) {
            return Optional.empty();
        }
        // a pid reused by another process since: its start is not the one written
        boolean same = process.filter(ProcessHandle::isAlive)
                .filter(handle -> parts[1].equals("-") || started(handle).map(Instant::toString).orElse("-").equals(parts[1]))
                .isPresent();
        if (!same) {
            return Optional.empty();
        }
        String since = parts[1].equals("-") ? "" : ", process started "
                + LocalTime.ofInstant(Instant.parse(parts[1]), ZoneId.systemDefault()).truncatedTo(ChronoUnit.SECONDS);
        return Optional.of(parts[2] + ", pid " + parts[0] + since);
    }

    private static Optional<Instant> started(ProcessHandle process) {
        return process.info().startInstant();
    }

    /** Lets the stack go, if this claim still holds it. */
    @Override
    public void close() {
        if (file == null) {
            return;
        }
        try {
            if (content.equals(Files.readString(file).strip())) {
                delete(file);
            }
        }
        catch (NoSuchFileException ex) {
            // let go already
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot delete " + file, ex);
        }
    }
}
