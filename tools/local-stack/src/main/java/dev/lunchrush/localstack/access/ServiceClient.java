package dev.lunchrush.localstack.access;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON over HTTP to one service, with the messages a user can act on: which service does not answer,
 * what it refused and why (the {@code detail} of its problem+json).
 */
public final class ServiceClient {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient SHARED = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(3))
            .build();

    private final HttpClient http;
    private final String name;
    private final URI base;
    private final Supplier<String> adminPassword;
    private final Duration timeout;

    public ServiceClient(String name, URI base, Supplier<String> adminPassword) {
        this(SHARED, name, base, adminPassword, Duration.ofSeconds(30));
    }

    public ServiceClient(HttpClient http, String name, URI base, Supplier<String> adminPassword, Duration timeout) {
        this.http = http;
        this.name = name;
        this.base = base;
        this.adminPassword = adminPassword;
        this.timeout = timeout;
    }

    public String name() {
        return name;
    }

    public URI base() {
        return base;
    }

    public JsonNode get(String path) {
        return exchange("GET", path, null, false);
    }

    public JsonNode put(String path, Object body, boolean admin) {
        return exchange("PUT", path, body, admin);
    }

    public JsonNode post(String path, Object body, boolean admin) {
        return exchange("POST", path, body, admin);
    }

    /** For live tables: the answer, or empty when the service is down or answers an error. */
    public Optional<JsonNode> tryGet(String path, Duration requestTimeout) {
        try {
            HttpResponse<String> response = http.send(request("GET", path, null, false, requestTimeout).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() / 100 != 2) {
                return Optional.empty();
            }
            return Optional.of(JSON.readTree(response.body()));
        }
        catch (IOException | JacksonException | IllegalArgumentException ex) {
            return Optional.empty();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * A 2xx answer with its headers, for the callers that read one (e.g. {@code Idempotent-Replayed}).
     *
     * @param body the answer's JSON, an empty object when it had none
     */
    public record Reply(int status, JsonNode body, HttpHeaders headers) {

        /** Whether the header is there with this value (case-insensitive). */
        public boolean header(String name, String value) {
            return headers.firstValue(name).map(value::equalsIgnoreCase).orElse(false);
        }
    }

    public JsonNode exchange(String method, String path, @Nullable Object body, boolean admin) {
        return send(method, path, body, admin, Map.of()).body();
    }

    /**
     * The request with extra headers (e.g. an {@code Idempotency-Key}); the answer when it is a 2xx, else a
     * {@link DemoException} that says which service refused what and why, with the status it answered
     * ({@link DemoException#status()}, 0 when it did not answer).
     */
    public Reply send(String method, String path, @Nullable Object body, boolean admin, Map<String, String> headers) {
        HttpResponse<String> response;
        try {
            HttpRequest.Builder request = request(method, path, body, admin, timeout);
            headers.forEach(request::header);
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (ConnectException | HttpConnectTimeoutException ex) {
            throw DemoException.temporary(name + " at " + base + " does not answer. Is the stack up? (./demo up, ./demo status)");
        }
        catch (HttpTimeoutException ex) {
            throw DemoException.temporary(name + " at " + base + " did not answer " + method + " " + path + " within "
                    + timeout.toSeconds() + " s");
        }
        catch (IOException ex) {
            throw DemoException.temporary(name + " at " + base + ": " + method + " " + path + " failed: " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DemoException("interrupted");
        }
        int status = response.statusCode();
        if (status == 401) {
            throw DemoException.answered(name + " refused the admin password (401). The CLI takes it from "
                    + AdminPassword.VARIABLE + ", .env or .run/admin-password; the service must have been started with the same.",
                    status);
        }
        if (status / 100 != 2) {
            throw DemoException.answered(name + " answered " + method + " " + path + " with " + status
                    + problemDetail(response.body()), status);
        }
        String text = response.body();
        if (text == null || text.isBlank()) {
            return new Reply(status, JSON.createObjectNode(), response.headers());
        }
        try {
            return new Reply(status, JSON.readTree(text), response.headers());
        }
        catch (JacksonException ex) {
            throw new DemoException(name + " answered " + method + " " + path + " with something that is not JSON: "
                    + abbreviate(text));
        }
    }

    private HttpRequest.Builder request(String method, String path, @Nullable Object body, boolean admin, Duration requestTimeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(Endpoints.resolve(base, path))
                .timeout(requestTimeout)
                .header("Accept", "application/json");
        if (body == null) {
            builder.method(method, HttpRequest.BodyPublishers.noBody());
        }
        else {
            builder.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        }
        if (admin) {
            builder.header("Authorization", basic("admin", adminPassword.get()));
        }
        return builder;
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** ": detail" from a problem+json body, or the start of whatever the body is. */
    static String problemDetail(@Nullable String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            JsonNode problem = JSON.readTree(body);
            String detail = text(problem, "detail");
            if (detail.isEmpty()) {
                detail = text(problem, "title");
            }
            return detail.isEmpty() ? ": " + abbreviate(body) : ": " + detail;
        }
        catch (JacksonException ex) {
            return ": " + abbreviate(body);
        }
    }

    /** The text of a field, or "" when it is missing or null. */
    public static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isMissingNode() || value.isNull() ? "" : value.asString("");
    }

    public static long number(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isNumber() ? value.asLong() : 0;
    }

    public static double decimal(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isNumber() ? value.asDouble() : 0;
    }

    private static String abbreviate(String text) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() > 200 ? flat.substring(0, 200) + "…" : flat;
    }
}
