package dev.lunchrush.orderservice.publishing;

import java.io.IOException;
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

import dev.lunchrush.orderservice.OrderServiceHttp;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order service with both brokers away (their ports closed): it starts anyway, serves the menu,
 * and every order gets a clean 503 within its timeout, never a 201 and never a hang.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BrokersDownTests {

    private static final int CLOSED_PORT = OrderServiceHttp.closedPort();

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void noBrokers(DynamicPropertyRegistry registry) {
        registry.add("spring.rabbitmq.port", () -> CLOSED_PORT);
        registry.add("spring.kafka.bootstrap-servers", () -> "127.0.0.1:" + CLOSED_PORT);
        registry.add("lunchrush.data-dir", () -> OrderServiceTests.temporaryFolder("order-service-down").toString());
    }

    @Test
    void startsServesTheMenuAndAnswers503InEveryAct() throws Exception {
        assertThat(send(HttpRequest.newBuilder(uri("/menu")).GET()).statusCode()).isEqualTo(200);

        for (String act : new String[] {"shared-queue", "queue-per-reader", "memory-feed", "log"}) {
            HttpResponse<String> switched = send(HttpRequest.newBuilder(uri("/admin/act"))
                    .header("Content-Type", "application/json")
                    .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                            ("admin:" + OrderServiceTests.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"act\":\"" + act + "\"}")));
            assertThat(switched.statusCode()).isEqualTo(200);

            long start = System.nanoTime();
            HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/orders"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"kitchenId":"k1","customerId":"c-1","items":[{"dish":"margherita","quantity":1}],
                             "deliveryAddress":"1 High Street"}""")));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(response.statusCode()).as(act + ": " + response.body()).isEqualTo(503);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(took).as(act).isLessThan(Duration.ofSeconds(12));
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
