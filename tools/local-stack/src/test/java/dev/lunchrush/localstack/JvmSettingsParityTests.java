package dev.lunchrush.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import dev.lunchrush.processes.RepoRoot;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./demo up} and docker compose run each service's JVM with the same settings, from one file
 * ({@code infra/jvm/<module>.env}): act 3 dies at the same point in both. The test reads the real compose
 * files and the launcher's real environment for each service, and fails on any JVM option set elsewhere.
 */
class JvmSettingsParityTests {

    private static final List<String> SERVICES = LocalStack.SERVICES;

    @Test
    void composeAndTheLauncherGiveEachServiceTheJvmOfItsFile() throws IOException {
        Path root = RepoRoot.find();
        for (String module : SERVICES) {
            assertThat(JvmSettings.options(root, module)).as("%s's JVM settings", module)
                    .anyMatch(option -> option.startsWith("-Xmx")).anyMatch(option -> option.matches("-XX:\\+Use\\w+GC"));
            // ./demo up: the file's options in the service's environment, none of its own on the command line
            assertThat(ServiceNode.environment(root, module, root.resolve("data"), "secret", "127.0.0.1:9092", "127.0.0.1", 8080))
                    .as("%s's environment under ./demo up", module)
                    .containsEntry(JvmSettings.VARIABLE, JvmSettings.javaToolOptions(root, module));
            assertThat(ServiceNode.jvmOptions(module)).as("%s's command line under ./demo up", module)
                    .noneMatch(option -> option.matches("-Xm[xsn].*|-XX:.*"));
        }
        Map<String, Object> main = services(root.resolve("docker-compose.yml"));
        for (String module : SERVICES) {
            Map<String, Object> service = instanceOf(main, module);
            assertThat(service).as("%s is a service of docker-compose.yml", module).isNotNull();
            assertThat(envFiles(service)).as("%s in docker-compose.yml: env_file", module)
                    .contains("infra/jvm/" + module + ".env");
            assertThat(jvmOptionsElsewhere(service)).as("%s in docker-compose.yml: JVM options outside infra/jvm", module)
                    .isEmpty();
        }
        // the cluster's file is laid over the main one: a service it only adds to keeps the main file's
        // env_file; one it brings (the second kitchen screen) needs its own
        Map<String, Object> cluster = services(root.resolve("docker-compose.cluster.yml"));
        for (Map.Entry<String, Object> entry : cluster.entrySet()) {
            String module = SERVICES.stream().filter(name -> entry.getKey().equals(name)
                    || entry.getKey().matches(java.util.regex.Pattern.quote(name) + "-?\\d+")).findFirst().orElse(null);
            if (module == null) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> service = (Map<String, Object>) entry.getValue();
            if (!main.containsKey(entry.getKey()) || service.containsKey("env_file")) {
                assertThat(envFiles(service)).as("%s in docker-compose.cluster.yml: env_file", entry.getKey())
                        .contains("infra/jvm/" + module + ".env");
            }
            assertThat(jvmOptionsElsewhere(service))
                    .as("%s in docker-compose.cluster.yml: JVM options outside infra/jvm", entry.getKey()).isEmpty();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> services(Path file) throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(file));
        return (Map<String, Object>) compose.getOrDefault("services", Map.of());
    }

    /** The compose service that runs the module: named after it, or after it and a number (the cluster's). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> instanceOf(Map<String, Object> services, String module) {
        for (Map.Entry<String, Object> entry : services.entrySet()) {
            if (entry.getKey().equals(module) || entry.getKey().matches(java.util.regex.Pattern.quote(module) + "-?\\d+")) {
                return (Map<String, Object>) entry.getValue();
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static List<String> envFiles(Map<String, Object> service) {
        Object envFile = service.get("env_file");
        List<String> files = new ArrayList<>();
        if (envFile instanceof String file) {
            files.add(normalize(file));
        }
        else if (envFile instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof String file) {
                    files.add(normalize(file));
                }
                else if (item instanceof Map<?, ?> map && map.get("path") instanceof String file) {
                    files.add(normalize(file));
                }
            }
        }
        return files;
    }

    private static String normalize(String file) {
        return file.startsWith("./") ? file.substring(2) : file;
    }

    /** JVM options given in the service's environment, command or entrypoint instead of its file. */
    @SuppressWarnings("unchecked")
    private static List<String> jvmOptionsElsewhere(Map<String, Object> service) {
        List<String> found = new ArrayList<>();
        Object environment = service.get("environment");
        if (environment instanceof Map<?, ?> map) {
            map.forEach((name, value) -> {
                if (String.valueOf(name).matches("JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|_JAVA_OPTIONS|JAVA_OPTS")) {
                    found.add(name + "=" + value);
                }
            });
        }
        else if (environment instanceof List<?> list) {
            list.stream().map(String::valueOf)
                    .filter(entry -> entry.matches("(JAVA_TOOL_OPTIONS|JDK_JAVA_OPTIONS|_JAVA_OPTIONS|JAVA_OPTS)=.*"))
                    .forEach(found::add);
        }
        for (String key : List.of("command", "entrypoint")) {
            String text = String.valueOf(service.getOrDefault(key, ""));
            if (text.matches("(?s).*(-Xm[xsn]\\d|-XX:).*")) {
                found.add(key + ": " + text);
            }
        }
        return found;
    }
}
