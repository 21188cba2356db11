package dev.lunchrush.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import dev.lunchrush.localstack.access.DemoException;

/**
 * Kafka's own performance tools ({@code kafka-producer-perf-test}, {@code kafka-consumer-perf-test}), run as child
 * processes from the jars {@code tools/kafka-broker} copies to {@code target/lib}: the brokers' ceilings, measured
 * on the same machine in the same run.
 */
final class KafkaTools {

    /** {@code N records sent, X records/sec (Y MB/sec), A ms avg latency, M ms max latency, a ms 50th, b ms 95th, c ms 99th, d ms 99.9th.} */
    private static final Pattern PRODUCER_SUMMARY = Pattern.compile("(\\d+) records sent, ([\\d.]+) records/sec \\(([\\d.]+) MB/sec\\), "
            + "([\\d.]+) ms avg latency, ([\\d.]+) ms max latency, (\\d+) ms 50th, (\\d+) ms 95th, (\\d+) ms 99th, (\\d+) ms 99.9th");

    record ProducerFigures(long records, double recordsPerSecond, double megabytesPerSecond, double p50Millis,
            double p99Millis, double p999Millis) {
    }

    record ConsumerFigures(long records, double recordsPerSecond, double fetchRecordsPerSecond, double megabytesPerSecond) {
    }

    private final Path libDir;
    private final String bootstrapServers;
    private final PrintWriter out;

    KafkaTools(Path root, String bootstrapServers, PrintWriter out) {
        this.libDir = root.resolve("tools").resolve("kafka-broker").resolve("target").resolve("lib");
        this.bootstrapServers = bootstrapServers;
        this.out = out;
        if (!Files.isDirectory(libDir)) {
            throw new DemoException("Kafka's tools are not built (" + libDir + "): ./mvnw -q -DskipTests package");
        }
    }

    /** acks=all, idempotent, linger 2 ms (as fast as it goes, batches fill anyway), records of {@code recordSize} bytes. */
    ProducerFigures producerPerf(String topic, long records, int recordSize) {
        return producerPerf(topic, records, recordSize, List.of());
    }

    /**
     * As {@link #producerPerf(String, long, int)}, in transactions of {@code transactionMillis} each (the tool commits on
     * a timer), as the admin import writes its batches.
     */
    ProducerFigures transactionalProducerPerf(String topic, long records, int recordSize, int transactionMillis) {
        return producerPerf(topic, records, recordSize, List.of("--transaction-duration-ms", String.valueOf(transactionMillis),
                "--transactional-id", "bench-producer-perf-" + System.nanoTime()));
    }

    private ProducerFigures producerPerf(String topic, long records, int recordSize, List<String> transactions) {
        createTopic(topic);
        List<String> arguments = new ArrayList<>(List.of("--topic", topic, "--num-records", String.valueOf(records),
                "--record-size", String.valueOf(recordSize), "--throughput", "-1"));
        arguments.addAll(transactions);
        arguments.addAll(List.of("--producer-props", "bootstrap.servers=" + bootstrapServers, "acks=all",
                "enable.idempotence=true", "linger.ms=2", "max.in.flight.requests.per.connection=5"));
        return producerSummary(run("org.apache.kafka.tools.ProducerPerformance", arguments));
    }

    /** The summary line {@code kafka-producer-perf-test} prints last. */
    static ProducerFigures producerSummary(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            Matcher m = PRODUCER_SUMMARY.matcher(lines.get(i));
            if (m.find()) {
                return new ProducerFigures(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2)),
                        Double.parseDouble(m.group(3)), Double.parseDouble(m.group(6)), Double.parseDouble(m.group(8)),
                        Double.parseDouble(m.group(9)));
            }
        }
        throw new DemoException("kafka-producer-perf-test printed no summary: " + String.join(" | ", lines));
    }

    /** Reads {@code records} records of the topic from its beginning, in a group of its own. */
    ConsumerFigures consumerPerf(String topic, long records) {
        List<String> lines = run("org.apache.kafka.tools.ConsumerPerformance", List.of("--bootstrap-server", bootstrapServers,
                "--topic", topic, "--messages", String.valueOf(records), "--timeout", "60000",
                "--group", "bench-consumer-perf-" + System.nanoTime()));
        return consumerSummary(lines);
    }

    /**
     * The figures line of {@code kafka-consumer-perf-test}, under its header: start.time, end.time,
     * data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec, rebalance.time.ms, fetch.time.ms, fetch.MB.sec,
     * fetch.nMsg.sec.
     */
    static ConsumerFigures consumerSummary(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            String[] fields = lines.get(i).split(",\\s*");
            if (fields.length >= 10 && fields[4].strip().matches("\\d+")) {
                return new ConsumerFigures(Long.parseLong(fields[4].strip()), Double.parseDouble(fields[5].strip()),
                        Double.parseDouble(fields[9].strip()), Double.parseDouble(fields[3].strip()));
            }
        }
        throw new DemoException("kafka-consumer-perf-test printed no figures: " + String.join(" | ", lines));
    }

    void deleteTopic(String topic) {
        try (Admin admin = admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
        catch (Exception ex) {
            out.println("(could not delete " + topic + ": " + ex.getMessage() + ")");
        }
    }

    private void createTopic(String topic) {
        try (Admin admin = admin()) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
                admin.createTopics(List.of(new NewTopic(topic, 3, (short) -1))).all().get(30, TimeUnit.SECONDS);
            }
        }
        catch (Exception ex) {
            throw new DemoException("could not create the topic " + topic + ": " + ex.getMessage());
        }
    }

    private Admin admin() {
        Properties config = new Properties();
        config.putAll(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
        return Admin.create(config);
    }

    private List<String> run(String mainClass, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Dlog4j.configuration=file:/dev/null", "-cp", libDir + "/*", mainClass));
        command.addAll(arguments);
        List<String> lines = new ArrayList<>();
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                    lines.add(line);
                }
            }
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new DemoException(mainClass + " did not finish within 10 minutes");
            }
            if (process.exitValue() != 0) {
                throw new DemoException(mainClass + " failed (exit " + process.exitValue() + "): "
                        + String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size())));
            }
            return lines;
        }
        catch (IOException ex) {
            throw new DemoException("cannot run " + mainClass + ": " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
    }
}
