package dev.lunchrush.scenarios.infra;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.testing.ServiceProcess;
import dev.lunchrush.testing.TestBrokers;

/**
 * Lunch Rush services run from their packaged jars as child processes, on free ports, wired to the
 * test brokers and to the order service, each with a data folder of its own. Closing stops every
 * process that was started.
 */
final class ChildServices implements AutoCloseable {

    static final String ADMIN_PASSWORD = "infra-tests-admin-secret";

    private static final Logger log = LoggerFactory.getLogger(ChildServices.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    // Small, quick-starting JVMs: several of them start at once on a small machine.
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    // Generous: on a loaded 2-core machine a Spring Boot service has been seen to take 3 minutes to start.
    private static final Duration START_TIMEOUT = Duration.ofMinutes(6);

    private final Path data;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, ServiceProcess> running = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    ChildServices(Path data, List<String> services) {
        this.data = data;
        services.forEach(service -> ports.put(service, freePort()));
    }

    /** Starts every service given to the constructor, in parallel, and waits until all are healthy. */
    ChildServices startAll() {
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        for (String service : ports.keySet()) {
            starts.add(CompletableFuture.runAsync(() -> start(service)));
        }
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        return this;
    }

    private void start(String service) {
        Map<String, String> environment = new LinkedHashMap<>(TestBrokers.environment());
        environment.put("LUNCHRUSH_SECURITY_ADMIN_PASSWORD", ADMIN_PASSWORD);
        if (ports.containsKey("order-service")) {
            environment.put("LUNCHRUSH_ORDER_SERVICE_URL", "http://127.0.0.1:" + ports.get("order-service"));
        }
        environment.put("LUNCHRUSH_DATA_DIR", data.resolve(service).toAbsolutePath().toString());
        ServiceProcess process = ServiceProcess.start(service, ports.get(service), JVM_OPTIONS, environment, START_TIMEOUT);
        synchronized (running) {
            running.put(service, process);
        }
    }

    List<String> services() {
        return List.copyOf(ports.keySet());
    }

    int port(String service) {
        return ports.get(service);
    }

    ServiceProcess process(String service) {
        synchronized (running) {
            return running.get(service);
        }
    }

    /** A valid order for the first kitchen and dish of the order service's menu. */
    String sampleOrder() {
        JsonNode kitchen = JSON.readTree(send("GET", "order-service", "/menu", null, false).body()).path("kitchens").path(0);
        return """
                {"kitchenId":"%s","customerId":"c-infra-tests","items":[{"dish":"%s","quantity":1}],\
                "deliveryAddress":"1 Scrape Street","notes":"infra tests"}"""
                .formatted(kitchen.path("id").asString(""), kitchen.path("dishes").path(0).asString(""));
    }

    /** Places {@code count} orders and returns how many got a 201. */
    int placeOrders(String order, int count) {
        int created = 0;
        for (int i = 0; i < count; i++) {
            HttpResponse<String> response = send("POST", "order-service", "/orders", order, false);
            if (response.statusCode() == 201) {
                created++;
            }
            else {
                log.warn("POST /orders answered {}: {}", response.statusCode(), response.body());
            }
        }
        return created;
    }

    HttpResponse<String> send(String method, String service, String path, String json, boolean admin) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.get(service) + path))
                .timeout(Duration.ofSeconds(20))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (admin) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString(("admin:" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)));
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new IllegalStateException(method + " " + service + path + " failed", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** The body at {@code uri} when it answers 200, else null (nothing listening, or an error). */
    String fetch(URI uri, String accept) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header("Accept", accept).GET().build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? response.body() : null;
        }
        catch (IOException ex) {
            return null;
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    static void logUnexpected(HttpResponse<String> response, String what) {
        if (response.statusCode() >= 300) {
            log.warn("{} answered {}: {}", what, response.statusCode(), response.body());
        }
    }

    @Override
    public void close() {
        synchronized (running) {
            running.values().forEach(ServiceProcess::stop);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
