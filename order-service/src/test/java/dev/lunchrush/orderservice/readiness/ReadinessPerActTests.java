package dev.lunchrush.orderservice.readiness;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.orderservice.OrderServiceHttp;
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
class ReadinessPerActTests extends OrderServiceHttp {

    private static final int CLOSED_PORT = closedPort();

    @DynamicPropertySource
    static void kafkaOnly(DynamicPropertyRegistry registry) {
        TestBrokers.registerKafka(registry);
        registry.add("spring.rabbitmq.port", () -> CLOSED_PORT);
        registry.add("lunchrush.data-dir", () -> OrderServiceTests.temporaryFolder("order-service-readiness").toString());
    }

    @Test
    void readyInTheLogActWithoutRabbitMqAndNotInTheQueueActs() {
        switchTo("log");
        await().atMost(Duration.ofSeconds(30)).until(() -> get("/actuator/health/readiness").statusCode() == 200);
        assertThat(get("/actuator/health/readiness").body()).as("what the log act needs").contains("\"kafka\":\"up: ",
                "\"kafka-topics\":\"up: orders and orders.DLT in place\"");
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

    private void switchTo(String act) {
        HttpResponse<String> switched = send(HttpRequest.newBuilder(uri("/admin/act"))
                .header("Content-Type", "application/json")
                .header("Authorization", basic("admin", ADMIN_PASSWORD))
                .PUT(HttpRequest.BodyPublishers.ofString("{\"act\":\"" + act + "\"}")));
        assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
    }
}
