package dev.lunchrush.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every {@code lunchrush.*} key a service reads is in its configuration metadata
 * ({@code META-INF/spring-configuration-metadata.json}, written by {@code spring-boot-configuration-processor} from
 * the {@code @ConfigurationProperties} records), with a description. What is read: each {@code ${lunchrush.…}}
 * placeholder in the module's {@code src/main/java} ({@code @Value}, listener annotations) and each
 * {@code lunchrush.*} key of its {@code application*.yml}/{@code .properties}. A setting's default is written once,
 * in its record's {@code @DefaultValue}: a placeholder with a default of its own, or a configuration file that
 * sets a key to its record's default, is a second copy that can drift from the first.
 */
public final class SettingsMetadata {

    private static final String PREFIX = "lunchrush.";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(lunchrush\\.[a-z0-9.\\-\\[\\]]+)(?::([^}]*))?}");
    private static final Pattern GET_PROPERTY = Pattern.compile("getProperty\\(\\s*\"(lunchrush\\.[a-z0-9.\\-]+)\"");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SettingsMetadata() {
    }

    /** A key described in the metadata: its description and default ({@code null} where there is none). */
    public record Described(String name, String description, String defaultValue) {
    }

    /** The {@code lunchrush.*} properties of every metadata file on the class path (the module's and its libraries'). */
    public static Map<String, Described> onClassPath(ClassLoader classLoader) {
        Map<String, Described> described = new TreeMap<>();
        try {
            for (URL url : Collections.list(classLoader.getResources("META-INF/spring-configuration-metadata.json"))) {
                try (InputStream in = url.openStream()) {
                    for (JsonNode property : JSON.readTree(in).path("properties")) {
                        String name = property.path("name").asString("");
                        if (name.startsWith(PREFIX)) {
                            JsonNode value = property.get("defaultValue");
                            described.put(name, new Described(name, property.path("description").asString(""),
                                    value == null || value.isNull() ? null : value.isValueNode() ? value.asString() : value.toString()));
                        }
                    }
                }
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return described;
    }

    /** What is wrong, one line each: keys read and not described, keys without a description, defaults written twice. */
    public static List<String> problems(Path module, Map<String, Described> described) {
        List<String> problems = new ArrayList<>();
        for (Described property : described.values()) {
            if (property.description() == null || property.description().isBlank()) {
                problems.add(property.name() + ": no description in the metadata (javadoc @param of its record component)");
            }
        }
        read(module).forEach((key, where) -> {
            Described property = find(key.name(), described);
            if (property == null) {
                problems.add(key.name() + " (" + where + "): read, but in no @ConfigurationProperties record's metadata");
            }
            else if (key.defaultValue() != null) {
                problems.add(key.name() + " (" + where + "): a default of its own ('" + key.defaultValue()
                        + "'): the record's @DefaultValue is the only default; read the record instead");
            }
            else if (key.value() != null && property.name().equals(key.name())
                    && sameDefault(key.value(), property.defaultValue())) {
                problems.add(key.name() + " (" + where + "): set to '" + key.value()
                        + "', its record's default: say it once, in the record");
            }
        });
        return problems;
    }

    /** A key read: a placeholder's default, or the value a configuration file gives it (a scalar's). */
    private record Read(String name, @Nullable String defaultValue, @Nullable String value) {
    }

    /** Every key the module reads, with where it is read. */
    private static Map<Read, String> read(Path module) {
        Map<Read, String> keys = new LinkedHashMap<>();
        Path sources = module.resolve("src/main/java");
        if (Files.isDirectory(sources)) {
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(path -> path.toString().endsWith(".java")).sorted().toList()) {
                    String text = Files.readString(file);
                    String where = module.relativize(file).toString();
                    Matcher placeholder = PLACEHOLDER.matcher(text);
                    while (placeholder.find()) {
                        String fallback = placeholder.group(2);
                        // a default made of constants ("…:" + Topology.ORDERS_TOPIC + "…") is a default too
                        keys.put(new Read(placeholder.group(1), fallback == null ? null : fallback.replace("\"", ""), null), where);
                    }
                    Matcher getProperty = GET_PROPERTY.matcher(text);
                    while (getProperty.find()) {
                        keys.put(new Read(getProperty.group(1), null, null), where);
                    }
                }
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        Path resources = module.resolve("src/main/resources");
        if (Files.isDirectory(resources)) {
            try (Stream<Path> files = Files.list(resources)) {
                for (Path file : files.filter(path -> path.getFileName().toString().matches("application.*\\.(yml|yaml|properties)"))
                        .sorted().toList()) {
                    configurationValues(file).forEach((key, value) ->
                            keys.put(new Read(key, null, value), module.relativize(file).toString()));
                }
            }
            catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
        }
        return keys;
    }

    /** The {@code lunchrush.*} keys of a configuration file; a list's or a map's key is the key of the whole. */
    static List<String> configurationKeys(Path file) throws IOException {
        return new ArrayList<>(configurationValues(file).keySet());
    }

    /** The {@code lunchrush.*} keys of a configuration file and their values (null for a list, a map or nothing). */
    static Map<String, @Nullable String> configurationValues(Path file) throws IOException {
        Map<String, @Nullable String> values = new LinkedHashMap<>();
        if (file.toString().endsWith(".properties")) {
            java.util.Properties properties = new java.util.Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                properties.load(reader);
            }
            properties.stringPropertyNames().stream().filter(key -> key.startsWith(PREFIX)).sorted()
                    .forEach(key -> values.put(key, properties.getProperty(key)));
            return values;
        }
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(reader)) {
                flatten("", document, values);
            }
        }
        values.keySet().removeIf(key -> !key.startsWith(PREFIX));
        return values;
    }

    private static void flatten(String prefix, @Nullable Object node, Map<String, @Nullable String> values) {
        if (node instanceof Map<?, ?> map && !map.isEmpty()) {
            map.forEach((name, value) -> flatten(prefix.isEmpty() ? String.valueOf(name) : prefix + "." + name, value, values));
        }
        else if (!prefix.isEmpty()) {
            values.put(prefix, node == null || node instanceof Map || node instanceof List ? null : String.valueOf(node));
        }
    }

    /** The key itself, or the map- or list-typed property it is an entry of. */
    private static Described find(String key, Map<String, Described> described) {
        Described exact = described.get(key);
        if (exact != null) {
            return exact;
        }
        return described.values().stream()
                .filter(property -> key.startsWith(property.name() + ".") || key.startsWith(property.name() + "["))
                .findFirst().orElse(null);
    }

    private static boolean sameDefault(String placeholder, String metadata) {
        if (metadata == null) {
            return false;
        }
        return placeholder.equalsIgnoreCase(metadata);
    }
}
