package dev.lunchrush.orderservice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.lunchrush.events.Topology;

/**
 * What the tests of the whole order service do with it over HTTP and RabbitMQ's admin: requests, orders, acts,
 * queue depths. The service and its brokers are the subclass's ({@link OrderServiceTests}, {@link StalledBrokersTests}).
 */
public abstract class OrderServiceHttp {

    public static final String ADMIN_PASSWORD = "test-admin-secret";
    public static final String VIEWER_PASSWORD = "test-viewer-secret";

    protected static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @LocalServerPort
    protected int port;

    @Autowired
    protected RabbitAdmin rabbitAdmin;

    public static Path temporaryFolder(String prefix) {
        try {
            Path dir = Files.createTempDirectory(prefix);
            dir.toFile().deleteOnExit();
            return dir;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** A port nothing listens on: a broker that is away. */
    public static int closedPort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    protected URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    protected HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    protected HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** {@code GET /feed?query} as the analytics job: with its credential (the admin's Basic). */
    protected HttpResponse<String> pullFeed(String query) {
        return send(HttpRequest.newBuilder(uri("/feed?" + query)).header("Authorization", basic("admin", ADMIN_PASSWORD)).GET());
    }

    protected HttpResponse<String> postJson(String path, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request);
    }

    protected HttpResponse<String> placeOrder(String body) {
        return postJson("/orders", body, Map.of());
    }

    protected HttpResponse<String> placeOrder() {
        return placeOrder(validOrder());
    }

    protected static String validOrder() {
        return """
                {"kitchenId":"k3","customerId":"c-1042",
                 "items":[{"dish":"pad-thai","quantity":2},{"dish":"spring-rolls","quantity":1}],
                 "deliveryAddress":"12 Mill Lane","notes":"no peanuts"}""";
    }

    /** {@code POST /admin/orders/import} as the admin, with {@code idempotencyKey} unless it is null. */
    protected HttpResponse<String> importOrders(String body, @Nullable String idempotencyKey) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("/admin/orders/import"))
                .header("Content-Type", "application/json")
                .header("Authorization", basic("admin", ADMIN_PASSWORD))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return send(request);
    }

    protected HttpResponse<String> importOrders(String body) {
        return importOrders(body, null);
    }

    protected HttpResponse<String> switchAct(String body) {
        return send(HttpRequest.newBuilder(uri("/admin/act"))
                .header("Content-Type", "application/json")
                .header("Authorization", basic("admin", ADMIN_PASSWORD))
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
    }

    protected void act(String body) {
        HttpResponse<String> response = switchAct(body);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("act switch failed: " + response.statusCode() + " " + response.body());
        }
    }

    protected static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    protected static JsonNode json(String body) {
        return JSON.readTree(body);
    }

    protected long queueDepth(String queue) {
        Properties properties = rabbitAdmin.getQueueProperties(queue);
        if (properties == null) {
            throw new IllegalStateException("queue " + queue + " does not exist");
        }
        return ((Number) properties.get(RabbitAdmin.QUEUE_MESSAGE_COUNT)).longValue();
    }

    protected void purgeOrderQueues() {
        for (String queue : new String[] {Topology.SHARED_QUEUE, Topology.KITCHEN_QUEUE, Topology.ANALYTICS_QUEUE}) {
            rabbitAdmin.purgeQueue(queue, false);
        }
    }
}
