package dev.lunchrush.scenarios;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.SampleOrders;
import dev.lunchrush.testing.ServiceProcess;
import dev.lunchrush.testing.TestBrokers;

/**
 * Lunch Rush services as child processes on free ports, wired to the test brokers and to each other,
 * each with a data folder of its own. Closing the stack stops every process it started.
 */
final class Stack implements AutoCloseable {

    static final String ADMIN_PASSWORD = "scenario-admin-secret";
    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(360);

    private final Path dataRoot;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, ServiceProcess> services = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    Stack() {
        try {
            dataRoot = Files.createDirectories(Path.of("target", "scenario-data", UUID.randomUUID().toString()));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        for (String module : List.of("order-service", "kitchen-screen", "analytics-dashboard", "report-replayer",
                "backlog-monitor")) {
            ports.put(module, freePort());
        }
    }

    /** Starts the named services in parallel, each with the given JVM options (empty for the defaults). */
    Stack start(Map<String, List<String>> modulesWithJvmOptions) {
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        modulesWithJvmOptions.forEach((module, jvmOptions) -> starts.add(CompletableFuture.runAsync(
                () -> start(module, jvmOptions, Map.of()))));
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        return this;
    }

    /**
     * Starts the named services in parallel, each with its JVM options and, where given, settings of
     * its own as environment variables (for example {@code LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN}).
     */
    Stack start(Map<String, List<String>> modulesWithJvmOptions, Map<String, Map<String, String>> environmentPerModule) {
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        modulesWithJvmOptions.forEach((module, jvmOptions) -> starts.add(CompletableFuture.runAsync(
                () -> start(module, jvmOptions, environmentPerModule.getOrDefault(module, Map.of())))));
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        return this;
    }

    ServiceProcess start(String module, List<String> jvmOptions, Map<String, String> extraEnvironment) {
        Map<String, String> environment = new LinkedHashMap<>(TestBrokers.environment());
        environment.put("LUNCHRUSH_SECURITY_ADMIN_PASSWORD", ADMIN_PASSWORD);
        environment.put("LUNCHRUSH_DATA_DIR", dataRoot.resolve(module).toAbsolutePath().toString());
        environment.put("LUNCHRUSH_ORDER_SERVICE_URL", "http://127.0.0.1:" + ports.get("order-service"));
        environment.putAll(extraEnvironment);
        ServiceProcess process = ServiceProcess.start(module, ports.get(module), jvmOptions, environment, START_TIMEOUT);
        synchronized (services) {
            services.put(module, process);
        }
        return process;
    }

    ServiceProcess service(String module) {
        return services.get(module);
    }

    URI uri(String module, String path) {
        return URI.create("http://127.0.0.1:" + ports.get(module) + path);
    }

    HttpResponse<String> get(String module, String path) {
        return send(HttpRequest.newBuilder(uri(module, path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    JsonNode getJson(String module, String path) {
        HttpResponse<String> response = get(module, path);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + module + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    HttpResponse<String> post(String module, String path, String json, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(module, path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        headers.forEach(request::header);
        return send(request.build());
    }

    HttpResponse<String> admin(String method, String module, String path, String json) {
        HttpRequest request = HttpRequest.newBuilder(uri(module, path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString(("admin:" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build();
        HttpResponse<String> response = send(request);
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + module + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response;
    }

    void switchAct(String actJson) {
        admin("PUT", "order-service", "/admin/act", actJson);
    }

    /** The analytics job's processing capacity, events per second. */
    void dashboardCapacity(int eventsPerSecond) {
        admin("PUT", "analytics-dashboard", "/admin/capacity", "{\"eventsPerSecond\":" + eventsPerSecond + "}");
    }

    /** Random valid order bodies for the order service's own menu, the same sequence for the same seed. */
    Supplier<String> orderBodies(long seed) {
        Menu menu = JSON.treeToValue(getJson("order-service", "/menu"), Menu.class);
        SampleOrders orders = new SampleOrders(menu, new Random(seed));
        return () -> {
            OrderRequest request;
            synchronized (orders) {
                request = orders.next();
            }
            return JSON.writeValueAsString(request);
        };
    }

    /**
     * A full collection in the module's JVM ({@code jcmd <pid> GC.run}), then its {@code /api/stats}: the
     * heap used after that collection is what is really kept alive.
     */
    JsonNode statsAfterFullGc(String module) {
        jcmd(module, "GC.run");
        return getJson(module, "/api/stats");
    }

    /** Runs {@code jcmd <pid> <command>} against a child service and returns its output. */
    String jcmd(String module, String command) {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process process = new ProcessBuilder(jcmd.toString(), String.valueOf(service(module).pid()), command)
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("jcmd " + command + " on " + module + " failed: " + output);
            }
            return output;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Override
    public void close() {
        services.values().forEach(ServiceProcess::stop);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
