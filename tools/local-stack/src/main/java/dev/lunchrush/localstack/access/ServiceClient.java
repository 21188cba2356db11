package dev.lunchrush.localstack.access;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * JSON over HTTP to one service, with the messages a user can act on: which service does not answer,
 * what it refused and why (the {@code detail} of its problem+json). A {@link RestClient} on the JDK's HTTP client
 * (HTTP/1.1, redirects not followed) underneath.
 */
public final class ServiceClient {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    /** One JDK client (its connections, its selector thread) per connect timeout, shared by the services' clients. */
    private static final Map<Duration, HttpClient> TRANSPORTS = new ConcurrentHashMap<>();

    private final HttpClient transport;
    private final RestClient http;
    private final Map<Duration, RestClient> byTimeout = new ConcurrentHashMap<>();
    private final String name;
    private final URI base;
    private final Supplier<String> adminPassword;
    private final Duration timeout;

    /** Connects within 3 s, waits up to 30 s for an answer. */
    public ServiceClient(String name, URI base, Supplier<String> adminPassword) {
        this(name, base, adminPassword, Duration.ofSeconds(3), Duration.ofSeconds(30));
    }

    /** Connects within {@code connectTimeout}, waits up to {@code timeout} for an answer. */
    public ServiceClient(String name, URI base, Supplier<String> adminPassword, Duration connectTimeout, Duration timeout) {
        this.transport = TRANSPORTS.computeIfAbsent(connectTimeout, ServiceClient::jdkClient);
        this.name = name;
        this.base = base;
        this.adminPassword = adminPassword;
        this.timeout = timeout;
        this.http = restClient(timeout);
    }

    private static HttpClient jdkClient(Duration connectTimeout) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
    }

    private RestClient restClient(Duration readTimeout) {
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(transport);
        requests.setReadTimeout(readTimeout);
        return RestClient.builder().requestFactory(requests).build();
    }

    private RestClient http(Duration requestTimeout) {
        return requestTimeout.equals(timeout) ? http : byTimeout.computeIfAbsent(requestTimeout, this::restClient);
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
        return tryGetText(path, requestTimeout, MediaType.APPLICATION_JSON).flatMap(text -> {
            try {
                return Optional.of(JSON.readTree(text));
            }
            catch (JacksonException | IllegalArgumentException ex) {
                return Optional.empty();
            }
        });
    }

    /** A text answer (a Prometheus scrape, say): the body of a 2xx, or empty when the service is down or answers an error. */
    public Optional<String> tryGetText(String path, Duration requestTimeout) {
        return tryGetText(path, requestTimeout, MediaType.ALL);
    }

    private Optional<String> tryGetText(String path, Duration requestTimeout, MediaType accept) {
        try {
            return Optional.ofNullable(http(requestTimeout).get().uri(Endpoints.resolve(base, path)).accept(accept)
                    .exchange((request, response) -> response.getStatusCode().is2xxSuccessful()
                            ? new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8) : null, true));
        }
        catch (RestClientException | IllegalArgumentException ex) {
            return Optional.empty();
        }
    }

    /** The status of a {@code GET} of {@code path}, its body unread; 0 when the service does not answer. */
    public int tryStatus(String path, Duration requestTimeout) {
        try {
            return http(requestTimeout).get().uri(Endpoints.resolve(base, path))
                    .exchange((request, response) -> response.getStatusCode().value(), true);
        }
        catch (RestClientException | IllegalArgumentException ex) {
            return 0;
        }
    }

    /**
     * What a request came to, for a caller that sorts the outcomes itself (a stream of orders under a fault): the
     * status and body of an answer, else whether the request reached the service at all.
     *
     * @param status the answer's status, 0 when there was none
     * @param connected false when nothing reached the service (no connection), so nothing can have been done
     */
    public record Attempt(int status, String body, boolean connected) {
    }

    /** A request whose body is JSON already, sent once; never throws for an error answer or a service that is down. */
    public Attempt attempt(String method, String path, byte[] json) {
        try {
            return http.method(HttpMethod.valueOf(method)).uri(Endpoints.resolve(base, path))
                    .accept(MediaType.APPLICATION_JSON).contentType(MediaType.APPLICATION_JSON).body(json)
                    .exchange((request, response) -> new Attempt(response.getStatusCode().value(),
                            new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8), true), true);
        }
        catch (RestClientException ex) {
            IOException cause = ioCause(ex);
            boolean notConnected = cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException;
            return new Attempt(0, "", !notConnected);
        }
    }

    /** A text answer (a Prometheus scrape, say), or a {@link DemoException} as {@link #send} says it. */
    public String getText(String path) {
        return new String(call("GET", path, null, false, Map.of(), MediaType.ALL).body(), StandardCharsets.UTF_8);
    }

    /**
     * A 2xx answer with its headers, for the callers that read one (e.g. {@code Idempotent-Replayed}).
     *
     * @param body the answer's JSON, an empty object when it had none
     */
    public record Reply(int status, JsonNode body, HttpHeaders headers) {

        /** Whether the header is there with this value (case-insensitive). */
        public boolean header(String name, String value) {
            String first = headers.getFirst(name);
            return first != null && value.equalsIgnoreCase(first);
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
        Raw response = call(method, path, body, admin, headers, MediaType.APPLICATION_JSON);
        String text = new String(response.body(), StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return new Reply(response.status(), JSON.createObjectNode(), response.headers());
        }
        try {
            return new Reply(response.status(), JSON.readTree(text), response.headers());
        }
        catch (JacksonException ex) {
            throw new DemoException(name + " answered " + method + " " + path + " with something that is not JSON: "
                    + abbreviate(text));
        }
    }

    /** A 2xx answer as it came. */
    private record Raw(int status, byte[] body, HttpHeaders headers) {
    }

    private Raw call(String method, String path, @Nullable Object body, boolean admin, Map<String, String> headers,
            MediaType accept) {
        RestClient.RequestBodySpec request = http.method(HttpMethod.valueOf(method)).uri(Endpoints.resolve(base, path))
                .accept(accept);
        if (body != null) {
            request.contentType(MediaType.APPLICATION_JSON).body(JSON.writeValueAsBytes(body));
        }
        if (admin) {
            request.header(HttpHeaders.AUTHORIZATION, basic("admin", adminPassword.get()));
        }
        headers.forEach(request::header);
        Raw response;
        try {
            response = request.exchange((sent, answer) -> new Raw(answer.getStatusCode().value(),
                    answer.getBody().readAllBytes(), HttpHeaders.copyOf(answer.getHeaders())), true);
        }
        catch (RestClientException ex) {
            throw notAnswered(method, path, ex);
        }
        int status = response.status();
        if (status == 401) {
            throw DemoException.answered(name + " refused the admin password (401). The CLI takes it from "
                    + AdminPassword.VARIABLE + ", .env or .run/admin-password; the service must have been started with the same.",
                    status);
        }
        if (status / 100 != 2) {
            throw DemoException.answered(name + " answered " + method + " " + path + " with " + status
                    + problemDetail(new String(response.body(), StandardCharsets.UTF_8)), status);
        }
        return response;
    }

    /** Why nothing answered, in the user's words. */
    private DemoException notAnswered(String method, String path, RestClientException ex) {
        if (Thread.currentThread().isInterrupted()) {
            return new DemoException("interrupted");
        }
        IOException cause = ioCause(ex);
        if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
            return DemoException.temporary(name + " at " + base + " does not answer. Is the stack up? (./demo up, ./demo status)");
        }
        if (cause instanceof HttpTimeoutException) {
            return DemoException.temporary(name + " at " + base + " did not answer " + method + " " + path + " within "
                    + timeout.toSeconds() + " s");
        }
        String reason = cause == null ? ex.getMessage() : cause.getMessage();
        return DemoException.temporary(name + " at " + base + ": " + method + " " + path + " failed: " + reason);
    }

    /** The I/O failure under a request that got no answer, if any. */
    private static @Nullable IOException ioCause(RestClientException ex) {
        Throwable cause = ex.getCause();
        while (cause != null && !(cause instanceof IOException)) {
            cause = cause.getCause();
        }
        return (IOException) cause;
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
