package dev.lunchrush.testing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16 (8): every counter an alert watches is exported from the start, at 0, for every source, so that
 * {@code increase()} and {@code rate()} see the first dead letter. A reader's test extends it with its
 * {@code @SpringBootTest}: the reader on a fresh data folder whose sources are off (nothing can arrive),
 * asked through {@code /actuator/prometheus} right after its start.
 */
public abstract class ReaderCountsAtStartTests {

    private final String application;
    private final List<String> sources;

    @LocalServerPort
    private int port;

    protected ReaderCountsAtStartTests(String application, List<String> sources) {
        this.application = application;
        this.sources = sources;
    }

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "reader-start");
    }

    @Test
    void receivedAndDeadLetteredExistAtZeroForEverySourceFromTheStart() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        for (String source : sources) {
            assertThat(response.body().lines())
                    .contains("orders_dead_lettered_total{application=\"" + application + "\",source=\"" + source + "\"} 0.0")
                    .contains("orders_received_total{application=\"" + application + "\",source=\"" + source + "\"} 0.0");
        }
    }
}
