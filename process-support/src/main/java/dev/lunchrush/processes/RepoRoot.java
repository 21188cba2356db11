package dev.lunchrush.processes;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository root: where {@code ./demo} lives, {@code .env} is read and {@code .run/} is kept. */
public final class RepoRoot {

    private RepoRoot() {
    }

    /** {@code LUNCHRUSH_HOME} (the {@code demo} script sets it), else the first parent with {@code mvnw}. */
    public static Path find() {
        String home = System.getenv("LUNCHRUSH_HOME");
        if (home != null && !home.isBlank()) {
            return Path.of(home).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (Path candidate = dir; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("mvnw")) && Files.isDirectory(candidate.resolve("tools"))) {
                return candidate;
            }
        }
        return dir;
    }
}
