package dev.lunchrush.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A service's JVM settings, from {@code infra/jvm/<module>.env}: the one source that {@code ./demo up}
 * and docker compose (its {@code env_file}) both read, so that the two ways of running the lesson give
 * each JVM the same heap and collector.
 */
final class JvmSettings {

    static final String VARIABLE = "JAVA_TOOL_OPTIONS";

    private JvmSettings() {
    }

    static Path file(Path root, String module) {
        return root.resolve("infra").resolve("jvm").resolve(module + ".env");
    }

    /** The value of {@code JAVA_TOOL_OPTIONS} in the module's file. */
    static String javaToolOptions(Path root, String module) {
        Path file = file(root, module);
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException("cannot read " + module + "'s JVM settings in " + file, ex);
        }
        for (String line : lines) {
            String entry = line.strip();
            if (entry.startsWith(VARIABLE + "=")) {
                return entry.substring(VARIABLE.length() + 1).strip();
            }
        }
        throw new IllegalStateException(file + " has no " + VARIABLE + "= line");
    }

    /** The options one by one. */
    static List<String> options(Path root, String module) {
        return List.of(javaToolOptions(root, module).split("\\s+"));
    }
}
