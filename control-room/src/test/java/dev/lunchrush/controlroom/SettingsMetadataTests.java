package dev.lunchrush.controlroom;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.lunchrush.testing.SettingsMetadata;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code lunchrush.*} key this service reads (placeholders in its sources, its application.yml) is in the
 * configuration metadata its jar carries, with a description ({@link SettingsMetadata}).
 */
class SettingsMetadataTests {

    @Test
    void everyLunchrushKeyReadIsInTheMetadataWithADescription() {
        var described = SettingsMetadata.onClassPath(getClass().getClassLoader());
        assertThat(described).isNotEmpty();
        assertThat(SettingsMetadata.problems(Path.of("").toAbsolutePath(), described)).isEmpty();
    }
}
