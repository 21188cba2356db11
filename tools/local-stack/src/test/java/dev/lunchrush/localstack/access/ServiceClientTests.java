package dev.lunchrush.localstack.access;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** What a service's answer becomes, and what the user is told when it refuses, is slow or is down. */
class ServiceClientTests {

    private final AtomicReference<String> authorization = new AtomicReference<>();
    private final AtomicReference<String> received = new AtomicReference<>();
    private HttpServer server;
    private ServiceClient client;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ok", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            received.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.getResponseHeaders().add("Idempotent-Replayed", "true");
            answer(exchange, 200, "{\"placed\": 3}");
        });
        server.createContext("/empty", exchange -> answer(exchange, 204, ""));
        server.createContext("/text", exchange -> answer(exchange, 200, "orders_placed_total 5.0\n"));
        server.createContext("/refused", exchange -> answer(exchange, 401, ""));
        server.createContext("/problem", exchange -> answer(exchange, 409, "{\"title\": \"Conflict\", \"detail\": \"not now\"}"));
        server.createContext("/moved", exchange -> {
            exchange.getResponseHeaders().add("Location", "/ok");
            answer(exchange, 302, "");
        });
        server.createContext("/slow", exchange -> {
            try {
                Thread.sleep(3000);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, "{}");
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        client = new ServiceClient("order-service", URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                () -> "s3cret", Duration.ofSeconds(3), Duration.ofSeconds(1));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws java.io.IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Test
    void answersAsJsonWithHeadersAndTheAdminCredential() {
        ServiceClient.Reply reply = client.send("POST", "/ok", Map.of("act", "log"), true, Map.of("Idempotency-Key", "k-1"));
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().path("placed").asLong()).isEqualTo(3);
        assertThat(reply.header("idempotent-replayed", "TRUE")).isTrue();
        assertThat(received.get()).isEqualTo("{\"act\":\"log\"}");
        assertThat(authorization.get()).isEqualTo(ServiceClient.basic("admin", "s3cret"));

        assertThat(client.get("/ok").path("placed").asLong()).isEqualTo(3);
        assertThat(authorization.get()).isNull();
        assertThat(client.exchange("GET", "/empty", null, false).isEmpty()).isTrue();
        assertThat(client.getText("/text")).isEqualTo("orders_placed_total 5.0\n");
    }

    @Test
    void refusalsSayWhoRefusedWhatAndWhy() {
        assertThatExceptionOfType(DemoException.class).isThrownBy(() -> client.get("/refused"))
                .withMessageStartingWith("order-service refused the admin password (401).");
        assertThatExceptionOfType(DemoException.class).isThrownBy(() -> client.put("/problem", Map.of(), true))
                .withMessage("order-service answered PUT /problem with 409: not now")
                .satisfies(ex -> assertThat(ex.status()).isEqualTo(409));
        assertThatExceptionOfType(DemoException.class).isThrownBy(() -> client.get("/moved"))
                .withMessage("order-service answered GET /moved with 302");
    }

    @Test
    void aSlowOrAbsentServiceIsSaidSo() throws Exception {
        assertThatExceptionOfType(DemoException.class).isThrownBy(() -> client.get("/slow"))
                .withMessage("order-service at " + client.base() + " did not answer GET /slow within 1 s");

        int free;
        try (ServerSocket socket = new ServerSocket(0)) {
            free = socket.getLocalPort();
        }
        ServiceClient down = new ServiceClient("kitchen-screen", URI.create("http://127.0.0.1:" + free), () -> "");
        assertThatExceptionOfType(DemoException.class).isThrownBy(() -> down.get("/api/stats"))
                .withMessage("kitchen-screen at http://127.0.0.1:" + free
                        + " does not answer. Is the stack up? (./demo up, ./demo status)")
                .satisfies(ex -> assertThat(ex.status()).isZero());
    }

    @Test
    void liveTablesGetNothingRatherThanAnError() throws Exception {
        assertThat(client.tryGet("/ok", Duration.ofSeconds(1))).hasValueSatisfying(body -> assertThat(body.path("placed").asLong()).isEqualTo(3));
        assertThat(client.tryGet("/problem", Duration.ofSeconds(1))).isEmpty();
        assertThat(client.tryGet("/text", Duration.ofSeconds(1))).isEmpty();
        assertThat(client.tryGet("/slow", Duration.ofMillis(200))).isEmpty();
        assertThat(client.tryGetText("/text", Duration.ofSeconds(1))).hasValue("orders_placed_total 5.0\n");
        assertThat(client.tryStatus("/moved", Duration.ofSeconds(1))).isEqualTo(302);
        assertThat(client.tryStatus("/nothing-here", Duration.ofSeconds(1))).isEqualTo(404);
        server.stop(0);
        assertThat(client.tryGet("/ok", Duration.ofSeconds(1))).isEmpty();
        assertThat(client.tryStatus("/ok", Duration.ofSeconds(1))).isZero();
    }

    @Test
    void anAttemptSaysWhatARequestCameTo() throws Exception {
        assertThat(client.attempt("POST", "/ok", "{\"n\":1}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new ServiceClient.Attempt(200, "{\"placed\": 3}", true));
        assertThat(received.get()).isEqualTo("{\"n\":1}");
        assertThat(client.attempt("POST", "/problem", new byte[0]).status()).isEqualTo(409);
        assertThat(client.attempt("POST", "/slow", new byte[0])).isEqualTo(new ServiceClient.Attempt(0, "", true));
        server.stop(0);
        assertThat(client.attempt("POST", "/ok", new byte[0])).isEqualTo(new ServiceClient.Attempt(0, "", false));
    }
}
