package dev.lunchrush.analyticsdashboard;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16 (8): every counter an alert watches is exported from the start, at 0, for every source, so that
 * {@code increase()} and {@code rate()} see the first dead letter. A dashboard on a fresh data folder whose
 * sources are off (nothing can arrive) is asked through {@code /actuator/prometheus} right after its start.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.order-service.url=http://127.0.0.1:1",
    "lunchrush.rabbitmq.listen=false",
    "lunchrush.kafka.listen=false",
    "lunchrush.feed.enabled=false"})
class StartMetricsTests {

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) throws Exception {
        TestBrokers.register(registry);
        Path dataDir = Files.createTempDirectory("analytics-dashboard-start");
        registry.add("lunchrush.data-dir", dataDir::toString);
    }

    @LocalServerPort
    int port;

    @Test
    void receivedAndDeadLetteredExistAtZeroForEverySourceFromTheStart() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        for (String source : new String[] {"shared-queue", "own-queue", "feed", "kafka"}) {
            assertThat(response.body().lines())
                    .contains("orders_dead_lettered_total{application=\"analytics-dashboard\",source=\"" + source + "\"} 0.0")
                    .contains("orders_received_total{application=\"analytics-dashboard\",source=\"" + source + "\"} 0.0");
        }
    }
}
