package dev.lunchrush.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The configuration of {@code infra/prometheus} (written for compose host names) made fit for processes on this
 * machine, read and written as YAML rather than as lines of text: every scrape target {@code <host>:<port>} is
 * replaced by where that host is played here, or left out (and a job left without targets goes with it); the
 * rule files are copied next to the configuration, which names them there. {@code ./demo up} and the tests
 * that run the machine's Prometheus write it here, each with its own idea of where the targets are.
 */
public final class PrometheusConfig {

    /** A {@code host:port} in a rule's expression or labels, such as {@code instance="backlog-monitor:8084"}. */
    private static final Pattern HOST_PORT = Pattern.compile("\\b[A-Za-z][\\w.-]*:\\d+\\b");

    private PrometheusConfig() {
    }

    /**
     * Writes {@code <source>/prometheus.yml} to {@code <target>/prometheus.yml} and {@code <source>/rules/*.yml}
     * to {@code <target>/rules/}; returns the configuration file.
     *
     * @param targets where a target {@code host:port} is played here ({@code host:port}), or null to leave it out
     */
    public static Path write(Path source, Path target, UnaryOperator<String> targets) {
        Path rulesTarget = target.resolve("rules");
        Path config = target.resolve("prometheus.yml");
        try {
            Files.createDirectories(rulesTarget);
            Files.writeString(config, localize(Files.readString(source.resolve("prometheus.yml")), rulesTarget, targets));
            Path rules = source.resolve("rules");
            if (Files.isDirectory(rules)) {
                try (DirectoryStream<Path> files = Files.newDirectoryStream(rules, "*.{yml,yaml}")) {
                    for (Path file : files) {
                        Files.writeString(rulesTarget.resolve(file.getFileName()), localizeRules(Files.readString(file), targets));
                    }
                }
            }
            return config;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** prometheus.yml with its targets where {@code targets} says and its rule files looked up in {@code rulesDir}. */
    @SuppressWarnings("unchecked")
    static String localize(String yaml, Path rulesDir, UnaryOperator<String> targets) {
        Map<String, Object> config = new Yaml().load(yaml);
        List<String> ruleFiles = new ArrayList<>();
        for (Object ruleFile : (List<Object>) config.getOrDefault("rule_files", List.of())) {
            ruleFiles.add(rulesDir.resolve(Path.of(String.valueOf(ruleFile)).getFileName()).toString());
        }
        if (config.containsKey("rule_files")) {
            config.put("rule_files", ruleFiles);
        }
        Iterator<Map<String, Object>> jobs = ((List<Map<String, Object>>) config.getOrDefault("scrape_configs", List.of()))
                .iterator();
        while (jobs.hasNext()) {
            boolean anyTarget = false;
            for (Map<String, Object> group : (List<Map<String, Object>>) jobs.next().getOrDefault("static_configs", List.of())) {
                List<String> local = new ArrayList<>();
                for (Object original : (List<Object>) group.getOrDefault("targets", List.of())) {
                    String replacement = targets.apply(String.valueOf(original));
                    if (replacement != null) {
                        local.add(replacement);
                    }
                }
                group.put("targets", local);
                anyTarget |= !local.isEmpty();
            }
            if (!anyTarget) {
                jobs.remove();
            }
        }
        return yaml().dump(config);
    }

    /** A rule file with each {@code host:port} in its strings rewritten; as it was, to the byte, when none is. */
    static String localizeRules(String yaml, UnaryOperator<String> targets) {
        Object rules = new Yaml().load(yaml);
        if (rules == null) {
            return yaml;
        }
        Object local = rewriteStrings(rules, targets);
        return local.equals(rules) ? yaml : yaml().dump(local);
    }

    private static Object rewriteStrings(Object node, UnaryOperator<String> targets) {
        if (node instanceof String text) {
            Matcher matcher = HOST_PORT.matcher(text);
            return matcher.replaceAll(match -> {
                String replacement = targets.apply(match.group());
                return Matcher.quoteReplacement(replacement == null ? match.group() : replacement);
            });
        }
        if (node instanceof List<?> list) {
            return list.stream().map(item -> rewriteStrings(item, targets)).toList();
        }
        if (node instanceof Map<?, ?> map) {
            Map<Object, Object> rewritten = new LinkedHashMap<>();
            map.forEach((key, value) -> rewritten.put(key, rewriteStrings(value, targets)));
            return rewritten;
        }
        return node;
    }

    private static Yaml yaml() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndicatorIndent(2);
        options.setIndentWithIndicator(true);
        return new Yaml(options);
    }
}
