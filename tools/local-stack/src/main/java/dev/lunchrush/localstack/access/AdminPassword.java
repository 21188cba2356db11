package dev.lunchrush.localstack.access;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The admin password of the services, looked up in the same order by every command: the environment
 * variable {@code LUNCHRUSH_SECURITY_ADMIN_PASSWORD}, else that key in {@code .env} at the root (what
 * {@code docker compose} reads), else {@code .run/admin-password}, which {@code up} generates once.
 */
public final class AdminPassword {

    public static final String VARIABLE = "LUNCHRUSH_SECURITY_ADMIN_PASSWORD";

    private AdminPassword() {
    }

    public static Optional<String> find(Path root) {
        return find(root, System.getenv());
    }

    static Optional<String> find(Path root, Map<String, String> environment) {
        String fromEnvironment = environment.get(VARIABLE);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return Optional.of(fromEnvironment);
        }
        String fromDotEnv = readDotEnv(root.resolve(".env"), VARIABLE);
        if (fromDotEnv != null && !fromDotEnv.isBlank()) {
            return Optional.of(fromDotEnv);
        }
        Path generated = generatedFile(root);
        if (Files.isRegularFile(generated)) {
            try {
                String text = Files.readString(generated).strip();
                return text.isEmpty() ? Optional.empty() : Optional.of(text);
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        return Optional.empty();
    }

    public static String require(Path root) {
        return find(root).orElseThrow(() -> new DemoException("""
                No admin password: set %s, or put %s=... in %s, \
                or run ./demo up once (it generates .run/admin-password).""".formatted(VARIABLE, VARIABLE,
                root.resolve(".env"))));
    }

    /** For {@code up}: the password the services will be started with, generated on the first start. */
    public static String findOrCreate(Path root) {
        return findOrCreate(root, System.getenv());
    }

    static String findOrCreate(Path root, Map<String, String> environment) {
        Optional<String> existing = find(root, environment);
        if (existing.isPresent()) {
            return existing.get();
        }
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        String password = HexFormat.of().formatHex(bytes);
        writePrivately(generatedFile(root), password + "\n");
        return password;
    }

    /**
     * Writes {@code text} to {@code file} so that nobody else can read it at any moment: a temporary file in the same
     * folder is created with mode 600 (the mode is given to the creation itself, not set afterwards) and written, then
     * moved over {@code file} atomically. A reader finds no file or the whole file, never a readable half.
     */
    static void writePrivately(Path file, String text) {
        Path folder = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(folder);
            Path temporary;
            try {
                temporary = Files.createTempFile(folder, "." + file.getFileName(), ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            catch (UnsupportedOperationException ex) {
                // not a POSIX file system: the file is as readable as the folder allows
                temporary = Files.createTempFile(folder, "." + file.getFileName(), ".tmp");
            }
            try {
                Files.writeString(temporary, text);
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            finally {
                Files.deleteIfExists(temporary);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static Path generatedFile(Path root) {
        return root.resolve(".run").resolve("admin-password");
    }

    /** KEY=VALUE lines, {@code #} comments, optional {@code export} and quotes, as compose reads them. */
    public static @Nullable String readDotEnv(Path file, String key) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        String value = null;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("export ")) {
                line = line.substring("export ".length()).strip();
            }
            int equals = line.indexOf('=');
            if (equals <= 0 || !line.substring(0, equals).strip().equals(key)) {
                continue;
            }
            String candidate = line.substring(equals + 1).strip();
            if (candidate.length() >= 2 && (candidate.startsWith("\"") && candidate.endsWith("\"")
                    || candidate.startsWith("'") && candidate.endsWith("'"))) {
                candidate = candidate.substring(1, candidate.length() - 1);
            }
            value = candidate;
        }
        return value;
    }
}
