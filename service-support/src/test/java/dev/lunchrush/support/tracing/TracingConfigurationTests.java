package dev.lunchrush.support.tracing;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The spans kept out of Zipkin: the actuator's, by their name (the observed request's method and path pattern). */
class TracingConfigurationTests {

    @Test
    void healthProbesAndScrapesAreNotExportedAndEverythingElseIs() {
        assertThat(TracingConfiguration.actuator("http get /actuator/prometheus")).isTrue();
        assertThat(TracingConfiguration.actuator("http get /actuator/health/{*path}")).isTrue();
        assertThat(TracingConfiguration.actuator("http get /actuator")).isTrue();
        assertThat(TracingConfiguration.actuator("http get /api/stats")).isFalse();
        assertThat(TracingConfiguration.actuator("place order")).isFalse();
        assertThat(TracingConfiguration.actuator(null)).isFalse();
    }
}
