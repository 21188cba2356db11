package dev.lunchrush.scenarios.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.lunchrush.testing.ServiceProcess;

/**
 * {@code infra/exported-metrics.txt}: every metric name the stack exports, as Prometheus stores it
 * ({@code x_total}, {@code x_bucket}, ...), with who exports it. {@code infra/check} requires every
 * metric of the alert rules and the dashboards to be in it; {@link ExportedMetricsTests} writes it from a
 * live stack and checks that the committed copy claims nothing that the stack does not export.
 * <p>
 * One name per line, then a space and its exporters, comma-separated: a service's name when it was
 * scraped from that service; {@code rabbitmq} for RabbitMQ's own exporter; {@code kafka-exporter} and
 * {@code prometheus} for the names taken from {@link KnownMetrics} (not scraped: compose only, or made by
 * Prometheus itself). Lines starting with {@code #} are comments.
 */
final class ExportedMetricsFile {

    static final String RABBITMQ = "rabbitmq";
    static final String KAFKA_EXPORTER = "kafka-exporter";
    static final String PROMETHEUS = "prometheus";

    /** Set to {@code write} (system property or environment variable) to rewrite the committed file. */
    static final String WRITE_PROPERTY = "lunchrush.exported-metrics";
    static final String WRITE_VARIABLE = "LUNCHRUSH_EXPORTED_METRICS";

    private static final String HEADER = """
            # Metric names the Lunch Rush stack exports, as Prometheus stores them (x_total, x_bucket, ...),
            # each with who exports it. infra/check fails when an alert rule or a dashboard uses a name that
            # is not here (a typo, or a metric nobody exports).
            # Written by scenario-tests' ExportedMetricsTests from a live stack (the five packaged services
            # after orders in every act, a poison record and a replay; RabbitMQ's exporter on port 15692).
            # From the services it keeps the Lunch Rush metrics, those a rule or dashboard uses, and the
            # jvm_, process_ and http_server_requests_ families (not the libraries' own, which come and go):
            #   ./mvnw verify -pl scenario-tests -am -Dtest=ExportedMetricsTests -Dsurefire.failIfNoSpecifiedTests=false -Dlunchrush.exported-metrics=write
            # Without the property the test checks this file instead: every name listed for a service (or
            # rabbitmq, when its exporter answers) is really exported, and every Lunch Rush metric exported
            # (orders_, order_, backlog_, replay_, analytics_, notifications_) is listed.
            # kafka-exporter: not scraped (compose only), the exporter's documented names.
            # prometheus: made by Prometheus itself.
            """;

    private ExportedMetricsFile() {
    }

    static Path committed() {
        return ServiceProcess.projectRoot().resolve("infra").resolve("exported-metrics.txt");
    }

    static boolean writeRequested() {
        String value = System.getProperty(WRITE_PROPERTY, System.getenv(WRITE_VARIABLE));
        return "write".equalsIgnoreCase(value == null ? "" : value.strip());
    }

    /** Name to exporters, sorted. */
    static Map<String, Set<String>> read(Path file) {
        Map<String, Set<String>> entries = new TreeMap<>();
        if (!Files.isRegularFile(file)) {
            return entries;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                String[] words = trimmed.split("\\s+", 2);
                Set<String> exporters = entries.computeIfAbsent(words[0], name -> new TreeSet<>());
                if (words.length > 1) {
                    for (String exporter : words[1].split(",")) {
                        exporters.add(exporter.strip());
                    }
                }
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return entries;
    }

    static String format(Map<String, Set<String>> entries) {
        StringBuilder text = new StringBuilder(HEADER);
        new TreeMap<>(entries).forEach((name, exporters) ->
                text.append(name).append(' ').append(String.join(",", new TreeSet<>(exporters))).append('\n'));
        return text.toString();
    }

    static void write(Path file, Map<String, Set<String>> entries) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, format(entries));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** The Lunch Rush services' own metric families: every one exported must be listed. */
    static boolean isLunchRushOwn(String name) {
        return List.of("orders_", "order_", "backlog_", "replay_", "analytics_", "notifications_", "lunchrush_").stream()
                .anyMatch(name::startsWith);
    }

    /**
     * The names the file keeps from a service's scrape: the Lunch Rush metrics, those a rule or a dashboard
     * uses, and the JVM's, the process' and the HTTP server's, which a panel may take up at any time and
     * which do not come and go with a service's libraries (a connection pool, Spring Security's
     * observations). RabbitMQ's exporter's names are all kept.
     */
    static boolean kept(String name, Set<String> used) {
        return isLunchRushOwn(name) || used.contains(name)
                || List.of("jvm_", "process_", "http_server_requests_").stream().anyMatch(name::startsWith);
    }

    /** What a committed list gets wrong against a scrape, one sentence per name. */
    static List<String> discrepancies(Map<String, Set<String>> committed, Map<String, Set<String>> scraped,
            Set<String> scrapedExporters) {
        List<String> problems = new ArrayList<>();
        committed.forEach((name, exporters) -> {
            for (String exporter : exporters) {
                if (scrapedExporters.contains(exporter) && !scraped.getOrDefault(name, Set.of()).contains(exporter)) {
                    problems.add(name + ": listed for " + exporter + ", which does not export it");
                }
            }
        });
        scraped.forEach((name, exporters) -> {
            if (isLunchRushOwn(name) && !committed.containsKey(name)) {
                problems.add(name + ": exported by " + String.join(",", exporters) + ", not listed");
            }
        });
        return problems;
    }
}
