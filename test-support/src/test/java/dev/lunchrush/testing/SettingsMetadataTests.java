package dev.lunchrush.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.lunchrush.testing.SettingsMetadata.Described;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link SettingsMetadata} on a module made up here: what it must catch and what it must let pass. */
class SettingsMetadataTests {

    @TempDir
    Path module;

    private static final Map<String, Described> DESCRIBED = Map.of(
            "lunchrush.feed.enabled", new Described("lunchrush.feed.enabled", "whether to pull", "true"),
            "lunchrush.menu.kitchens", new Described("lunchrush.menu.kitchens", "the kitchens", null),
            "lunchrush.rabbitmq.prefetch", new Described("lunchrush.rabbitmq.prefetch", "deliveries in flight", "100"));

    private void source(String text) throws Exception {
        Path file = module.resolve("src/main/java/example/Reader.java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private void yaml(String text) throws Exception {
        Path file = module.resolve("src/main/resources/application.yml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    @Test
    void describedKeysPass() throws Exception {
        source("""
                class Reader {
                    Reader(@Value("${lunchrush.rabbitmq.prefetch}") int prefetch) { }
                    @KafkaListener(autoStartup = "${lunchrush.feed.enabled}", topics = "${lunchrush.menu.kitchens}")
                    void on() { }
                }""");
        yaml("""
                spring:
                  application:
                    name: example
                lunchrush:
                  feed:
                    enabled: false
                  menu:
                    kitchens:
                      - id: k1
                        dishes: [a, b]
                """);
        assertThat(SettingsMetadata.problems(module, DESCRIBED)).isEmpty();
    }

    @Test
    void aValueReadButNotDescribedIsCaught() throws Exception {
        source("""
                class Reader {
                    Reader(@Value("${lunchrush.rabbitmq.batch-size:25}") int batchSize) { }
                }""");
        assertThat(SettingsMetadata.problems(module, DESCRIBED)).singleElement().asString()
                .contains("lunchrush.rabbitmq.batch-size").contains("Reader.java").contains("in no @ConfigurationProperties");
    }

    @Test
    void aYamlKeyNotDescribedIsCaught() throws Exception {
        yaml("""
                lunchrush:
                  feed:
                    enabled: false
                    wait-millis: 4000
                """);
        assertThat(SettingsMetadata.problems(module, DESCRIBED)).singleElement().asString()
                .contains("lunchrush.feed.wait-millis").contains("application.yml");
    }

    @Test
    void aPlaceholderWithADefaultOfItsOwnIsCaught() throws Exception {
        source("""
                class Reader {
                    Reader(@Value("${lunchrush.rabbitmq.prefetch:100}") int prefetch) { }
                    @KafkaListener(topics = "${lunchrush.feed.enabled:" + X + "}")
                    void on() { }
                }""");
        assertThat(SettingsMetadata.problems(module, DESCRIBED)).hasSize(2).first().asString()
                .contains("lunchrush.rabbitmq.prefetch").contains("a default of its own ('100')");
    }

    @Test
    void aYamlValueThatRepeatsTheRecordsDefaultIsCaught() throws Exception {
        yaml("""
                lunchrush:
                  rabbitmq:
                    prefetch: 100
                """);
        assertThat(SettingsMetadata.problems(module, DESCRIBED)).singleElement().asString()
                .contains("lunchrush.rabbitmq.prefetch").contains("its record's default");
    }

    @Test
    void aKeyWithoutDescriptionIsCaught() {
        assertThat(SettingsMetadata.problems(module, Map.of("lunchrush.zone", new Described("lunchrush.zone", "", "UTC"))))
                .singleElement().asString().contains("lunchrush.zone: no description");
    }
}
