package dev.lunchrush.orderservice.readiness;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.orderservice.OrderServiceTests;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Readiness follows the act: with RabbitMQ away (its port closed) and a real Kafka, the order service is ready in
 * the log act and not ready in the queue acts, while liveness stays up throughout (a stopped RabbitMQ must not mark
 * the service down in the Kafka act, nor make an orchestrator restart it).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ReadinessPerActTests {

    private static final int CLOSED_PORT = closedPort();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void kafkaOnly(DynamicPropertyRegistry registry) {
        TestBrokers.registerKafka(registry);
        registry.add("spring.rabbitmq.port", () -> CLOSED_PORT);
        registry.add("lunchrush.data-dir", () -> OrderServiceTests.temporaryFolder("order-service-readiness").toString());
    }

    @Test
    void readyInTheLogActWithoutRabbitMqAndNotInTheQueueActs() throws Exception {
        switchTo("log");
        await().atMost(Duration.ofSeconds(30)).until(() -> get("/actuator/health/readiness").statusCode() == 200);
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);

        for (String act : new String[] {"shared-queue", "queue-per-reader", "memory-feed"}) {
            switchTo(act);
            HttpResponse<String> readiness = get("/actuator/health/readiness");
            assertThat(readiness.statusCode()).as(act + ": " + readiness.body()).isEqualTo(503);
            assertThat(get("/actuator/health/liveness").statusCode()).as(act).isEqualTo(200);
        }

        switchTo("log");
        assertThat(get("/actuator/health/readiness").statusCode()).isEqualTo(200);
    }

    private void switchTo(String act) throws Exception {
        HttpResponse<String> switched = send(HttpRequest.newBuilder(uri("/admin/act"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        ("admin:" + OrderServiceTests.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"act\":\"" + act + "\"}")));
        assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
