package dev.lunchrush.controlroom;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StackPropertiesTests {

    @Test
    void aServiceNotSetIsOnLocalhostAtItsManifestPort() {
        StackProperties unset = new StackProperties(null, null, null, null, null, null, null, null, null);
        assertThat(unset.orderServiceUrl()).isEqualTo(URI.create("http://localhost:8080"));
        assertThat(unset.kitchenScreenUrl()).isEqualTo(URI.create("http://localhost:8081"));
        assertThat(unset.analyticsDashboardUrl()).isEqualTo(URI.create("http://localhost:8082"));
        assertThat(unset.reportReplayerUrl()).isEqualTo(URI.create("http://localhost:8083"));
        assertThat(unset.backlogMonitorUrl()).isEqualTo(URI.create("http://localhost:8084"));
        assertThat(unset.prometheusUrl()).isEqualTo(URI.create("http://localhost:9090"));
        // compose's host ports: under ./demo up nothing answers there, and the page shows no link
        assertThat(unset.grafanaUrl()).isEqualTo(URI.create("http://localhost:3000"));
        assertThat(unset.kafkaUiUrl()).isEqualTo(URI.create("http://localhost:8090"));
        assertThat(unset.zipkinUrl()).isEqualTo(URI.create("http://localhost:9411"));

        URI given = URI.create("http://order-service:8080");
        assertThat(new StackProperties(given, null, null, null, null, null, null, null, null).orderServiceUrl()).isSameAs(given);
    }
}
