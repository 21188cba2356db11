package dev.lunchrush.controlroom;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.ApiContract;
import dev.lunchrush.testing.MvcMappings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The control room's OpenAPI document against the running app, both ways ({@link ApiContract}): every mapped path
 * documented, every documented operation answering as documented, with and without the admin's credentials. The order
 * service is a stub (its menu, a 201 for every order, its act); the other services are down.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.security.admin-password=contract-admin-secret", "server.address=127.0.0.1"})
class ApiContractTests {

    private static final HttpServer ORDER_SERVICE = orderService();

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    private static HttpServer orderService() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/menu", exchange -> answer(exchange, 200,
                    "{\"kitchens\":[{\"id\":\"k1\",\"name\":\"Noodles\",\"dishes\":[\"pad-thai\"]}]}"));
            server.createContext("/orders", exchange -> {
                exchange.getRequestBody().readAllBytes();
                answer(exchange, 201, "{\"orderId\":\"o-1\"}");
            });
            server.createContext("/admin/act", exchange -> {
                exchange.getRequestBody().readAllBytes();
                answer(exchange, 200, "{\"act\":\"memory-feed\",\"strategy\":\"unbounded\",\"capacity\":20000}");
            });
            server.start();
            return server;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @DynamicPropertySource
    static void stack(DynamicPropertyRegistry registry) {
        registry.add("lunchrush.order-service-url", () -> "http://127.0.0.1:" + ORDER_SERVICE.getAddress().getPort());
        for (String service : new String[] {"kitchen-screen", "analytics-dashboard", "report-replayer", "backlog-monitor"}) {
            registry.add("lunchrush." + service + "-url", () -> "http://127.0.0.1:9");
        }
        registry.add("lunchrush.prometheus-url", () -> "http://127.0.0.1:9");
    }

    @AfterAll
    static void stopTheStub() {
        ORDER_SERVICE.stop(0);
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Test
    void everyMappedPathIsDocumentedAndEveryDocumentedOneMapped() {
        JsonNode document = ApiContract.document(base());
        assertThat(document.path("openapi").asString()).startsWith("3.1");
        assertThat(ApiContract.compare(document, MvcMappings.of(context))).isEmpty();
    }

    @Test
    void everyDocumentedOperationAnswersAsDocumented() {
        assertThat(ApiContract.answers(base(), ApiContract.document(base()), "contract-admin-secret")).isEmpty();
    }
}
