package dev.lunchrush.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The house's proportions, read from the sources: no main class is longer than {@value #LONGEST} lines, and the
 * instruments under {@code tools/} are no larger than the five services they measure. {@code tools/house} prints
 * the same figures.
 */
class HouseRulesTests {

    static final int LONGEST = 400;
    static final List<String> SERVICES = List.of("order-service", "kitchen-screen", "analytics-dashboard",
            "report-replayer", "backlog-monitor");
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void noMainClassIsLongerThanTheBound() {
        Map<String, Long> tooLong = new TreeMap<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(HouseRulesTests::isMainJava).forEach(file -> {
                long lines = lines(file);
                if (lines > LONGEST) {
                    tooLong.put(ROOT.relativize(file).toString(), lines);
                }
            });
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        assertThat(tooLong).as("main classes over %d lines", LONGEST).isEmpty();
    }

    @Test
    void theInstrumentsAreNoLargerThanTheServices() {
        long services = SERVICES.stream().mapToLong(service -> mainLines(ROOT.resolve(service))).sum();
        long tools = mainLines(ROOT.resolve("tools"));
        assertThat(services).as("the five services' main lines").isPositive();
        assertThat(tools).as("tools/ main lines against the five services' %d", services).isLessThanOrEqualTo(services);
    }

    private static long mainLines(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(HouseRulesTests::isMainJava).mapToLong(HouseRulesTests::lines).sum();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static boolean isMainJava(Path file) {
        String path = file.toString().replace('\\', '/');
        return path.endsWith(".java") && path.contains("/src/main/java/") && !path.contains("/target/")
                && !path.contains("/.git/");
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
