package dev.lunchrush.scenarios;

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
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;
import dev.lunchrush.testing.FreePorts;
import dev.lunchrush.testing.ServiceProcess;
import dev.lunchrush.testing.TestBrokers;

import static org.awaitility.Awaitility.await;

/**
 * Lunch Rush services run from their packaged jars as child processes, on free ports, wired to the
 * test brokers and to the order service, each with a data folder of its own. Closing the stack stops
 * every process it started.
 * <p>
 * For a whole test class it is an extension: started (the services in parallel, then the order service
 * switched to the act) before the class's first test, and closed after its last, also when a service
 * did not start:
 * <pre>{@code
 * @RegisterExtension
 * static final Stack stack = new Stack("order-service", "kitchen-screen").inAct("{\"act\":\"log\"}");
 * }</pre>
 */
public final class Stack implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    public static final JsonMapper JSON = JsonMapper.builder().build();
    /** How long a service may take to become healthy: on a loaded 2-core machine one took 3 minutes. */
    public static final Duration START_TIMEOUT = Duration.ofMinutes(6);
    /** How long an act switch may take to be ready. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private static final String ADMIN_PASSWORD = "scenario-admin-secret";
    // Small, quick-starting JVMs: several of them start at once on a small machine. Each exits of its own
    // OutOfMemoryError, as every JVM of the stack does: a half-dead service would fail a test late and for the wrong reason.
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-XX:+ExitOnOutOfMemoryError");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dataRoot;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> environments = new HashMap<>();
    private final Map<String, List<String>> jvmOptions = new HashMap<>();
    private final Map<String, ServiceProcess> services = new ConcurrentHashMap<>();
    private String act;

    /** The named services, with their data under {@code target/scenario-data}. */
    public Stack(String... modules) {
        this(Path.of("target", "scenario-data", UUID.randomUUID().toString()), List.of(modules));
    }

    public Stack(Path dataRoot, List<String> modules) {
        try {
            this.dataRoot = Files.createDirectories(dataRoot);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        modules.forEach(module -> ports.put(module, FreePorts.next()));
    }

    /** Settings of the module's own, as environment variables (for example {@code LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN}). */
    public Stack environment(String module, Map<String, String> environment) {
        environments.put(module, environment);
        return this;
    }

    /**
     * JVM options of the module's own, in place of the small, quick-starting defaults; the module then runs from its
     * packaged jar, as {@code ./demo up} runs it, not extracted with a class data archive.
     */
    public Stack jvm(String module, List<String> options) {
        jvmOptions.put(module, List.copyOf(options));
        return this;
    }

    /** The act ({@code PUT /admin/act} body) that {@link #start()} switches the order service to. */
    public Stack inAct(String actJson) {
        act = actJson;
        return this;
    }

    /** Starts every service in parallel, waits until all are healthy, then switches to the act if one was given. */
    public Stack start() {
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        ports.keySet().forEach(module -> starts.add(CompletableFuture.runAsync(() -> start(module))));
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        if (act != null) {
            switchAct(act);
        }
        return this;
    }

    private void start(String module) {
        Map<String, String> environment = new LinkedHashMap<>(TestBrokers.environment());
        environment.put("LUNCHRUSH_SECURITY_ADMIN_PASSWORD", ADMIN_PASSWORD);
        environment.put("LUNCHRUSH_DATA_DIR", dataRoot.resolve(module).toAbsolutePath().toString());
        // no Zipkin here unless a scenario starts one and says where (TracingScenarioTests)
        environment.put("MANAGEMENT_TRACING_EXPORT_ENABLED", "false");
        if (ports.containsKey("order-service")) {
            environment.put("LUNCHRUSH_ORDER_SERVICE_URL", "http://127.0.0.1:" + ports.get("order-service"));
        }
        environment.putAll(environments.getOrDefault(module, Map.of()));
        // a JVM the test sized itself runs from the jar, as ./demo up runs it: its heap is what the test measures
        services.put(module, jvmOptions.containsKey(module)
                ? ServiceProcess.startFromJar(module, ports.get(module), jvmOptions.get(module), environment,
                        START_TIMEOUT)
                : ServiceProcess.start(module, ports.get(module), JVM_OPTIONS, environment, START_TIMEOUT));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    public ServiceProcess service(String module) {
        return services.get(module);
    }

    /** The services of this stack, by module name. */
    public List<String> modules() {
        return List.copyOf(ports.keySet());
    }

    /** The admin password the services were started with ({@code LUNCHRUSH_SECURITY_ADMIN_PASSWORD}). */
    public String adminPassword() {
        return ADMIN_PASSWORD;
    }

    /** The folder under which each service keeps its data. */
    public Path dataRoot() {
        return dataRoot;
    }

    public int port(String module) {
        return ports.get(module);
    }

    public URI uri(String module, String path) {
        return URI.create("http://127.0.0.1:" + ports.get(module) + path);
    }

    public HttpResponse<String> get(String module, String path) {
        return send(HttpRequest.newBuilder(uri(module, path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    public JsonNode getJson(String module, String path) {
        HttpResponse<String> response = get(module, path);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + module + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    public HttpResponse<String> post(String module, String path, String json, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(module, path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        headers.forEach(request::header);
        return send(request.build());
    }

    /** A request as the admin user, whatever it answers. */
    public HttpResponse<String> sendAsAdmin(String method, String module, String path, String json) {
        HttpRequest request = HttpRequest.newBuilder(uri(module, path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString(("admin:" + ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build();
        return send(request);
    }

    /** A request as the admin user that must succeed (2xx). */
    public HttpResponse<String> admin(String method, String module, String path, String json) {
        HttpResponse<String> response = sendAsAdmin(method, module, path, json);
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + module + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return response;
    }

    /**
     * Switches the order service's act and waits until it is ready in it (its readiness names what the act needs:
     * a broker answering, the log's topics in place), so that the first order is not turned away.
     */
    public void switchAct(String actJson) {
        admin("PUT", "order-service", "/admin/act", actJson);
        await().atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(() -> get("order-service", "/actuator/health/readiness").statusCode() == 200);
    }

    /** The analytics job's processing capacity, events per second. */
    public void dashboardCapacity(int eventsPerSecond) {
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
    public JsonNode statsAfterFullGc(String module) {
        jcmd(module, "GC.run");
        return getJson(module, "/api/stats");
    }

    /** Runs {@code jcmd <pid> <command>} against a child service and returns its output. */
    public String jcmd(String module, String command) {
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

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** The body at {@code uri} when it answers 200, else null (nothing listening, or an error). */
    public static String fetch(URI uri, String accept) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).header("Accept", accept).GET().build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
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

    @Override
    public void close() {
        services.values().forEach(ServiceProcess::stop);
    }
}
