package dev.lunchrush.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every service's JVM, under {@code ./demo up} and docker compose alike (both read {@code infra/jvm/<module>.env}),
 * exits of its own OutOfMemoryError: a service past its budget, act 3's order service above all, dies at once
 * instead of living on without answering, so that its death is seen, and dated, when it stops serving.
 */
class ExitOnOutOfMemoryTests {

    private static final String EXIT = "-XX:+ExitOnOutOfMemoryError";

    @Test
    void everyServicesJvmSettingsExitOnOutOfMemory() throws IOException {
        List<Path> files;
        try (Stream<Path> listed = Files.list(jvmSettings())) {
            files = listed.filter(file -> file.getFileName().toString().endsWith(".env")).sorted().toList();
        }
        assertThat(files).as("infra/jvm/*.env").isNotEmpty()
                .anySatisfy(file -> assertThat(file.getFileName()).hasToString("order-service.env"));
        for (Path file : files) {
            List<String> options = Files.readAllLines(file).stream()
                    .filter(line -> line.startsWith("JAVA_TOOL_OPTIONS="))
                    .flatMap(line -> Stream.of(line.substring("JAVA_TOOL_OPTIONS=".length()).strip().split("\\s+")))
                    .toList();
            assertThat(options).as("%s's JAVA_TOOL_OPTIONS", file.getFileName()).contains(EXIT)
                    .doesNotContain("-XX:-ExitOnOutOfMemoryError");
        }
    }

    /** {@code infra/jvm}, found from the module's folder upwards. */
    private static Path jvmSettings() {
        for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
            Path candidate = folder.resolve("infra").resolve("jvm");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("no infra/jvm above " + Path.of("").toAbsolutePath());
    }
}
