package dev.lunchrush.localstack.access;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** A queue's depth from the management API, and what the user is told when the API refuses or is down. */
class RabbitManagementClientTests {

    @Test
    void readsTheDepthAndSaysWhenTheApiRefusesOrIsDown() throws Exception {
        AtomicInteger status = new AtomicInteger(200);
        AtomicReference<String> authorization = new AtomicReference<>();
        AtomicReference<String> path = new AtomicReference<>();
        HttpServer management = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        management.createContext("/api/queues", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            path.set(exchange.getRequestURI().getRawPath());
            byte[] body = "{\"messages\": 1, \"messages_ready\": 4, \"messages_unacknowledged\": 2}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        management.start();
        URI base = URI.create("http://127.0.0.1:" + management.getAddress().getPort());
        RabbitManagementClient client = new RabbitManagementClient(base, "guest", "guest");
        try {
            assertThat(client.queueDepth("kitchen.orders")).isEqualTo(6);
            assertThat(path.get()).isEqualTo("/api/queues/%2F/kitchen.orders");
            assertThat(authorization.get()).isEqualTo(ServiceClient.basic("guest", "guest"));

            status.set(404);
            assertThat(client.queueDepth("kitchen.orders")).isZero();

            status.set(500);
            assertThatExceptionOfType(DemoException.class).isThrownBy(() -> client.queueDepth("kitchen.orders"))
                    .withMessage("RabbitMQ's management API answered 500 for kitchen.orders");
        }
        finally {
            management.stop(0);
        }
        assertThatExceptionOfType(DemoException.class).isThrownBy(() -> client.queueDepth("kitchen.orders"))
                .withMessageStartingWith("RabbitMQ's management API at " + base + " does not answer");
    }
}
