package dev.lunchrush.localstack;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LauncherPiecesTests {

    @TempDir
    Path root;

    @Test
    void prometheusConfigurationPointsAtLocalhostAndAtItsOwnRuleFiles() throws Exception {
        Path source = Files.createDirectories(root.resolve("infra/prometheus/rules"));
        Files.writeString(source.getParent().resolve("prometheus.yml"), """
                global:
                  scrape_interval: 5s
                rule_files:
                  - /etc/prometheus/rules/*.yml
                scrape_configs:
                  - job_name: order-service
                    static_configs:
                      - targets: ["order-service:8080"]
                  - job_name: rabbitmq
                    static_configs:
                      - targets: ['rabbitmq:15692']
                  - job_name: example
                    static_configs:
                      - targets: ["example.org:443"]
                  - job_name: kafka-exporter
                    static_configs:
                      - targets: ["kafka-exporter:9308"]
                """);
        Files.writeString(source.resolve("alerts.yml"), "groups: [{name: x, rules: [{alert: A, expr: 'up{instance=\"backlog-monitor:8084\"} == 0'}]}]\n");
        Path target = root.resolve(".run/prometheus");

        Prometheus.writeConfiguration(source.getParent(), target);

        String config = Files.readString(target.resolve("prometheus.yml"));
        // the Kafka exporter runs in compose only: here its job would be down for ever, and KafkaExporterDown firing
        assertThat(targets(config)).containsExactly(Map.entry("order-service", List.of("127.0.0.1:8080")),
                Map.entry("rabbitmq", List.of("127.0.0.1:15692")), Map.entry("example", List.of("example.org:443")));
        assertThat(new Yaml().<Map<String, Object>>load(config).get("rule_files"))
                .isEqualTo(List.of(target.resolve("rules").resolve("*.yml").toString()));
        assertThat(config).doesNotContain("order-service:8080").doesNotContain("/etc/prometheus");
        assertThat(Files.readString(target.resolve("rules/alerts.yml"))).contains("127.0.0.1:8084");
    }

    @Test
    void aTargetNobodyPlaysIsLeftOutAndAJobWithoutTargetsWithIt() {
        String config = PrometheusConfig.localize("""
                rule_files: [rules/*.yml]
                scrape_configs:
                  - job_name: prometheus
                    static_configs:
                      - targets: ["localhost:9090"]
                  - job_name: order-service
                    static_configs:
                      - targets: ["order-service:8080", "kafka-exporter:9308"]
                  - job_name: kafka-exporter
                    static_configs:
                      - targets: ["kafka-exporter:9308"]
                """, root.resolve("rules"), target -> Map.of("localhost:9090", "127.0.0.1:41000",
                "order-service:8080", "127.0.0.1:41001").get(target));

        assertThat(targets(config)).containsExactly(Map.entry("prometheus", List.of("127.0.0.1:41000")),
                Map.entry("order-service", List.of("127.0.0.1:41001")));
    }

    /** Each job's targets, in the order of the configuration. */
    @SuppressWarnings("unchecked")
    private static Map<String, List<String>> targets(String config) {
        Map<String, List<String>> targets = new LinkedHashMap<>();
        for (Map<String, Object> job : (List<Map<String, Object>>) new Yaml().<Map<String, Object>>load(config).get("scrape_configs")) {
            for (Map<String, Object> group : (List<Map<String, Object>>) job.get("static_configs")) {
                targets.computeIfAbsent((String) job.get("job_name"), name -> new ArrayList<>())
                        .addAll((List<String>) group.get("targets"));
            }
        }
        return targets;
    }

    @Test
    void singleBrokerIsAStandaloneDynamicQuorumWithReplicationOne() throws Exception {
        KafkaNode node = new LocalStack(root, false).kafkaNodes().get(0);
        node.writeConfiguration();

        Properties properties = load(node.propertiesFile());
        assertThat(node.name()).isEqualTo("kafka");
        assertThat(properties).containsEntry("node.id", "1")
                .containsEntry("process.roles", "broker,controller")
                .containsEntry("controller.quorum.bootstrap.servers", "127.0.0.1:9093")
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093")
                .containsEntry("log.dirs", root.resolve(".run/kafka/data").toString())
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("num.partitions", "3")
                .containsEntry("auto.create.topics.enable", "false")
                .doesNotContainKey("controller.quorum.voters");
        assertThat(Files.readString(root.resolve(".run/kafka/log4j.properties"))).contains("log4j.rootLogger=INFO");
    }

    @Test
    void clusterIsThreeStaticVotersWithReplicationThreeAndMinInsyncTwo() throws Exception {
        List<KafkaNode> nodes = new LocalStack(root, true).kafkaNodes();
        assertThat(nodes).extracting(KafkaNode::name).containsExactly("kafka-1", "kafka-2", "kafka-3");
        assertThat(nodes).extracting(KafkaNode::port).containsExactly(9092, 9094, 9096);
        assertThat(new LocalStack(root, true).bootstrapServers()).isEqualTo("127.0.0.1:9092,127.0.0.1:9094,127.0.0.1:9096");
        nodes.get(1).writeConfiguration();

        Properties properties = load(nodes.get(1).propertiesFile());
        assertThat(properties).containsEntry("node.id", "2")
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:9093,2@127.0.0.1:9095,3@127.0.0.1:9097")
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:9094,CONTROLLER://127.0.0.1:9095")
                .containsEntry("default.replication.factor", "3")
                .containsEntry("min.insync.replicas", "2")
                .containsEntry("offsets.topic.replication.factor", "3")
                .containsEntry("transaction.state.log.min.isr", "2");
    }

    /** {@code up} runs Zipkin and the services trace; {@code up --no-tracing}: no Zipkin, and no service traces. */
    @Test
    void withoutTracingThereIsNoZipkinAndNoServiceTraces() throws Exception {
        Path jvm = Files.createDirectories(root.resolve("infra").resolve("jvm"));
        for (String module : LocalStack.SERVICES) {
            Files.writeString(jvm.resolve(module + ".env"), "JAVA_TOOL_OPTIONS=-Xmx64m\n");
        }
        LocalStack traced = new LocalStack(root, false, true, Map.of());
        LocalStack untraced = new LocalStack(root, false, false, Map.of());
        assertThat(traced.components("secret")).extracting(Component::name).contains("zipkin");
        assertThat(untraced.components("secret")).extracting(Component::name).doesNotContain("zipkin");
        for (Component component : traced.components("secret")) {
            if (component instanceof ServiceNode service) {
                assertThat(service.environment(root.resolve("data"))).doesNotContainKey("MANAGEMENT_TRACING_EXPORT_ENABLED");
            }
        }
        for (Component component : untraced.components("secret")) {
            if (component instanceof ServiceNode service) {
                assertThat(service.environment(root.resolve("data"))).containsEntry("MANAGEMENT_TRACING_EXPORT_ENABLED", "false");
            }
        }
        untraced.markCluster();
        assertThat(LocalStack.asStarted(root).tracing()).as("down and status find the stack as up left it").isFalse();
        traced.markCluster();
        assertThat(LocalStack.asStarted(root).tracing()).isTrue();
    }

    /** As compose publishes on 127.0.0.1: every service of {@code ./demo up} binds there unless asked otherwise. */
    @Test
    void everyServiceListensOnTheLoopbackUnlessTheBindAddressSaysOtherwise() throws Exception {
        Path jvm = Files.createDirectories(root.resolve("infra").resolve("jvm"));
        for (String module : LocalStack.SERVICES) {
            Files.writeString(jvm.resolve(module + ".env"), "JAVA_TOOL_OPTIONS=-Xmx64m\n");
        }
        List<String> byDefault = new ArrayList<>();
        List<String> asked = new ArrayList<>();
        for (Component component : new LocalStack(root, false, Map.of()).components("secret")) {
            if (component instanceof ServiceNode service) {
                byDefault.add(service.name() + "@" + service.environment(root.resolve("data")).get("SERVER_ADDRESS"));
            }
        }
        for (Component component : new LocalStack(root, false, Map.of("LUNCHRUSH_BIND_ADDRESS", "0.0.0.0")).components("secret")) {
            if (component instanceof ServiceNode service) {
                asked.add(service.name() + "@" + service.environment(root.resolve("data")).get("SERVER_ADDRESS"));
            }
        }
        assertThat(byDefault).containsExactlyElementsOf(LocalStack.SERVICES.stream().map(name -> name + "@127.0.0.1").toList());
        assertThat(asked).containsExactlyElementsOf(LocalStack.SERVICES.stream().map(name -> name + "@0.0.0.0").toList());
        assertThat(new LocalStack(root, false, Map.of("LUNCHRUSH_BIND_ADDRESS", " ")).bindAddress()).isEqualTo("127.0.0.1");
    }

    @Test
    void aServicesJvmSettingsAreItsFilesJavaToolOptions() throws Exception {
        Path jvm = Files.createDirectories(root.resolve("infra").resolve("jvm"));
        Files.writeString(jvm.resolve("order-service.env"), "# heap and collector\n\nJAVA_TOOL_OPTIONS=-Xmx192m  -XX:+UseParallelGC\n");

        assertThat(JvmSettings.javaToolOptions(root, "order-service")).isEqualTo("-Xmx192m  -XX:+UseParallelGC");
        assertThat(JvmSettings.options(root, "order-service")).containsExactly("-Xmx192m", "-XX:+UseParallelGC");
        assertThatThrownBy(() -> JvmSettings.javaToolOptions(root, "kitchen-screen"))
                .hasMessageContaining("kitchen-screen's JVM settings");
    }

    @Test
    void startsStopsAndNeverSignalsAStranger() throws Exception {
        Path runDir = root.resolve(".run");
        ManagedProcess sleeper = new ManagedProcess("sleeper", runDir, "61.25");
        ProcessHandle handle = sleeper.start(List.of("sleep", "61.25"), Map.of(), root);

        assertThat(Files.readString(runDir.resolve("sleeper.pid")).strip()).isEqualTo(String.valueOf(handle.pid()));
        assertThat(sleeper.running()).map(ProcessHandle::pid).contains(handle.pid());
        assertThat(sleeper.logFile()).exists();

        // a pid file that names a live process which is not ours (a child of this test, started without the
        // marker on its command line): it is not "running", stop() leaves it alone, and it lives on
        Process child = new ProcessBuilder("sleep", "30").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Files.writeString(runDir.resolve("stranger.pid"), child.pid() + "\n");
            ManagedProcess stranger = new ManagedProcess("stranger", runDir, "kafka-server.properties-not-here");
            assertThat(stranger.running()).isEmpty();
            assertThat(stranger.stop(Duration.ofSeconds(1))).isEqualTo("was not running (stale pid file " + child.pid()
                    + " removed)");
            // a signal would have ended sleep at once: half a second without an exit is well past that
            assertThat(child.waitFor(500, java.util.concurrent.TimeUnit.MILLISECONDS)).as("the stranger exited").isFalse();
            assertThat(child.isAlive()).isTrue();
        }
        finally {
            child.destroy();
            child.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        }

        assertThat(sleeper.stop(Duration.ofSeconds(5))).startsWith("stopped");
        assertThat(handle.isAlive()).isFalse();
        assertThat(runDir.resolve("sleeper.pid")).doesNotExist();
        assertThat(sleeper.running()).isEmpty();
    }

    @Test
    void aProcessStartedHereIsOursWhileItLivesWhateverItsCommandLineSays() throws Exception {
        // while setsid execs java, /proc/PID/cmdline reads empty for a moment: the marker check then said "not ours",
        // and a service restarted by ./demo bench was reported as "the process exited" while it was starting.
        // Here the command line never names the marker at all.
        Path runDir = root.resolve(".run");
        ManagedProcess unnamed = new ManagedProcess("unnamed", runDir, "a-marker-on-no-command-line");
        ProcessHandle handle = unnamed.start(List.of("sleep", "61.5"), Map.of(), root);
        try {
            assertThat(unnamed.running()).map(ProcessHandle::pid).contains(handle.pid());
            // another ./demo command has only the pid file and the command line to go by: to it, this is a stranger
            assertThat(new ManagedProcess("unnamed", runDir, "a-marker-on-no-command-line").running()).isEmpty();
        }
        finally {
            assertThat(unnamed.stop(Duration.ofSeconds(5))).startsWith("stopped");
        }
        assertThat(handle.isAlive()).isFalse();
    }

    @Test
    void aProcessThatExitedIsReportedWithItsExitCode() throws Exception {
        Path runDir = root.resolve(".run");
        ManagedProcess failing = new ManagedProcess("failing", runDir, "exit 3");
        failing.start(List.of("sh", "-c", "exit 3"), Map.of(), root).onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(failing.running()).isEmpty();
        assertThat(failing.exitedState("the process")).isEqualTo("failed: the process exited (exit code 3)");

        ManagedProcess killed = new ManagedProcess("killed", runDir, "61.75");
        ProcessHandle sleeper = killed.start(List.of("sleep", "61.75"), Map.of(), root);
        sleeper.destroyForcibly();
        sleeper.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(killed.exitedState("the broker")).isEqualTo("failed: the broker exited (exit code 137: killed by signal 9)");

        // one that another ./demo command started: no exit code to tell
        assertThat(new ManagedProcess("failing", runDir, "exit 3").exitedState("the process"))
                .isEqualTo("failed: the process exited");
    }

    @Test
    void aProcessWhoseCommandLineCannotBeReadIsNotOurs() {
        // before: an unreadable command line made the pid file's word enough, and stop() signalled the process
        assertThat(ManagedProcess.isOurs(java.util.Optional.empty(), "kafka.Kafka")).isFalse();
        assertThat(ManagedProcess.isOurs(java.util.Optional.of("java -cp lib/* kafka.Kafka x.properties"), "kafka.Kafka"))
                .isTrue();
        assertThat(ManagedProcess.isOurs(java.util.Optional.of("sleep 100"), "kafka.Kafka")).isFalse();
        // the command line of a live process of ours is read, from the JDK or from /proc
        assertThat(ManagedProcess.commandLine(ProcessHandle.current())).hasValueSatisfying(line -> assertThat(line).contains("java"));
    }

    private static Properties load(Path file) throws Exception {
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        }
        return properties;
    }
}
