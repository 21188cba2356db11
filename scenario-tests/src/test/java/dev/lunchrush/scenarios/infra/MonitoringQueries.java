package dev.lunchrush.scenarios.infra;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.testing.ServiceProcess;

/**
 * Every PromQL expression of {@code infra/}: the targets of the Grafana dashboards and the alert rules,
 * and the metric names they use.
 */
final class MonitoringQueries {

    static final String PINNED_DATASOURCE_UID = "lunchrush-prometheus";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    // A small tokenizer, not a PromQL parser: it removes everything that can hold a name that is not
    // a metric's (strings, label matchers, ranges, grouping label lists, Grafana variables), then keeps
    // the identifiers that are neither keywords nor functions (an identifier followed by "(").
    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern LABEL_MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^\\]]*]");
    private static final Pattern GROUPING_LABELS = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern OFFSETS = Pattern.compile("\\boffset\\s+-?[0-9a-zA-Z]+", Pattern.CASE_INSENSITIVE);
    private static final Pattern GRAFANA_VARIABLES = Pattern.compile("\\$\\{?\\w+}?");
    private static final Pattern TOKENS = Pattern.compile("[0-9][0-9a-zA-Z_.]*|[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of(
            // aggregation operators (may be followed by "by"/"without" instead of "(")
            "sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk", "topk",
            "quantile", "limitk", "limit_ratio",
            // binary operators and modifiers
            "and", "or", "unless", "atan2", "bool", "by", "without", "on", "ignoring", "group_left", "group_right",
            "offset",
            // number literals spelled as words, and the @ modifier's functions
            "inf", "nan", "start", "end");

    private MonitoringQueries() {
    }

    /** One expression and where it comes from, for failure messages. */
    record Query(String origin, String expr) {

        Set<String> metricNames() {
            return MonitoringQueries.metricNames(expr);
        }
    }

    static Path infra() {
        return ServiceProcess.projectRoot().resolve("infra");
    }

    static List<Path> dashboardFiles() {
        return list(infra().resolve("grafana").resolve("dashboards"), ".json");
    }

    static List<Path> ruleFiles() {
        return list(infra().resolve("prometheus").resolve("rules"), ".yml");
    }

    static JsonNode dashboard(Path file) {
        return JSON.readTree(file);
    }

    /** Every panel of a dashboard, rows' nested panels included. */
    static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        collectPanels(dashboard.path("panels"), panels);
        return panels;
    }

    private static void collectPanels(JsonNode nodes, List<JsonNode> into) {
        for (JsonNode panel : nodes.values()) {
            into.add(panel);
            collectPanels(panel.path("panels"), into);
        }
    }

    /** The expressions of every dashboard's targets and every alert or recording rule. */
    static List<Query> all() {
        List<Query> queries = new ArrayList<>();
        for (Path file : dashboardFiles()) {
            for (JsonNode panel : panels(dashboard(file))) {
                for (JsonNode target : panel.path("targets").values()) {
                    String expr = target.path("expr").asString("");
                    if (!expr.isBlank()) {
                        queries.add(new Query(file.getFileName() + " / " + panel.path("title").asString(""), expr));
                    }
                }
            }
        }
        for (Path file : ruleFiles()) {
            for (Map<String, Object> rule : rules(file)) {
                Object name = rule.containsKey("alert") ? rule.get("alert") : rule.get("record");
                queries.add(new Query(file.getFileName() + " / " + name, String.valueOf(rule.get("expr"))));
            }
        }
        return queries;
    }

    /** Each metric name used anywhere, with the places that use it. */
    static Map<String, Set<String>> usedMetricNames() {
        Map<String, Set<String>> used = new TreeMap<>();
        for (Query query : all()) {
            for (String name : query.metricNames()) {
                used.computeIfAbsent(name, key -> new TreeSet<>()).add(query.origin());
            }
        }
        return used;
    }

    static Set<String> metricNames(String expr) {
        String stripped = STRINGS.matcher(expr).replaceAll(" ");
        stripped = LABEL_MATCHERS.matcher(stripped).replaceAll(" ");
        stripped = RANGES.matcher(stripped).replaceAll(" ");
        stripped = GROUPING_LABELS.matcher(stripped).replaceAll(" ");
        stripped = OFFSETS.matcher(stripped).replaceAll(" ");
        stripped = GRAFANA_VARIABLES.matcher(stripped).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher token = TOKENS.matcher(stripped);
        while (token.find()) {
            String word = token.group();
            if (Character.isDigit(word.charAt(0)) || KEYWORDS.contains(word.toLowerCase())) {
                continue;
            }
            if (isFollowedByParenthesis(stripped, token.end())) {
                continue; // a function: rate(, histogram_quantile(, label_replace(, ...
            }
            names.add(word);
        }
        return names;
    }

    private static boolean isFollowedByParenthesis(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i < text.length() && text.charAt(i) == '(';
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            Map<String, Object> document = new Yaml().load(reader);
            List<Map<String, Object>> rules = new ArrayList<>();
            for (Map<String, Object> group : (List<Map<String, Object>>) document.get("groups")) {
                rules.addAll((List<Map<String, Object>>) group.get("rules"));
            }
            return rules;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static List<Path> list(Path folder, String suffix) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
