package dev.lunchrush.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A service's OpenAPI document ({@code /v3/api-docs}) against the service itself, both ways:
 * <ul>
 * <li>every mapped path and method (from the handler mappings, {@link Mapping}) is in the document with a summary:
 * springdoc lists every controller method by itself, so a mapping added without its {@code @Operation} shows as
 * undocumented, and one hidden from springdoc as missing;</li>
 * <li>every documented operation answers as documented: a sample request made of the document's own examples
 * (path, query and header parameters, the request body; the admin's HTTP Basic where the operation asks for it)
 * gets a status the operation lists, with a content type listed for that status; an admin operation asked without
 * credentials gets its documented 401.</li>
 * </ul>
 */
public final class ApiContract {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private ApiContract() {
    }

    /** A handler mapping's method and path pattern, as OpenAPI writes them ({@code GET /orders/{orderId}}). */
    public record Mapping(String method, String path) implements Comparable<Mapping> {

        public Mapping {
            method = method.toUpperCase(Locale.ROOT);
        }

        @Override
        public int compareTo(Mapping other) {
            return (path + " " + method).compareTo(other.path + " " + other.method);
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** The document at {@code base/v3/api-docs}; fails unless it answers 200 with JSON. */
    public static JsonNode document(URI base) {
        HttpResponse<String> response = send(HttpRequest.newBuilder(base.resolve("/v3/api-docs")).GET(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 || !response.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
            throw new AssertionError("/v3/api-docs answered " + response.statusCode() + " "
                    + response.headers().firstValue("Content-Type").orElse("without a Content-Type"));
        }
        return JSON.readTree(response.body());
    }

    /** The operations of the document, each with a summary or not. */
    static Set<Mapping> operations(JsonNode document, boolean withSummaryOnly) {
        Set<Mapping> operations = new TreeSet<>();
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                if (METHODS.contains(operation.getKey()) && (!withSummaryOnly
                        || !operation.getValue().path("summary").asString("").isBlank())) {
                    operations.add(new Mapping(operation.getKey(), path.getKey()));
                }
            }
        }
        return operations;
    }

    /** What is mapped and not documented (absent, or without a summary), and what is documented and not mapped. */
    public static List<String> compare(JsonNode document, Set<Mapping> mapped) {
        List<String> problems = new ArrayList<>();
        Set<Mapping> listed = operations(document, false);
        Set<Mapping> documented = operations(document, true);
        for (Mapping mapping : new TreeSet<>(mapped)) {
            if (!listed.contains(mapping)) {
                problems.add(mapping + ": mapped, but not in the document");
            }
            else if (!documented.contains(mapping)) {
                problems.add(mapping + ": mapped, but not documented (no @Operation summary)");
            }
        }
        for (Mapping operation : listed) {
            if (!mapped.contains(operation)) {
                problems.add(operation + ": in the document, but no handler maps it");
            }
        }
        return problems;
    }

    /** Each documented operation asked with its sample request; what did not answer as documented. */
    public static List<String> answers(URI base, JsonNode document, String adminPassword) {
        List<String> problems = new ArrayList<>();
        for (var path : document.path("paths").properties()) {
            for (var entry : path.getValue().properties()) {
                if (!METHODS.contains(entry.getKey())) {
                    continue;
                }
                Mapping operation = new Mapping(entry.getKey(), path.getKey());
                JsonNode spec = entry.getValue();
                try {
                    boolean admin = needsAdmin(spec, document);
                    problems.addAll(ask(base, operation, spec, admin ? adminPassword : null));
                    if (admin) {
                        problems.addAll(ask(base, operation, spec, null));
                    }
                }
                catch (IllegalArgumentException ex) {
                    problems.add(operation + ": " + ex.getMessage());
                }
            }
        }
        return problems;
    }

    private static boolean needsAdmin(JsonNode operation, JsonNode document) {
        JsonNode security = operation.has("security") ? operation.get("security") : document.path("security");
        for (JsonNode requirement : security) {
            if (requirement.has("admin")) {
                return true;
            }
        }
        return false;
    }

    private static List<String> ask(URI base, Mapping operation, JsonNode spec, String adminPassword) {
        String path = operation.path();
        StringBuilder query = new StringBuilder();
        HttpRequest.Builder request = HttpRequest.newBuilder().timeout(Duration.ofSeconds(30));
        for (JsonNode parameter : spec.path("parameters")) {
            String name = parameter.path("name").asString();
            String in = parameter.path("in").asString();
            String example = example(parameter);
            if (example == null) {
                if (parameter.path("required").asBoolean(false)) {
                    throw new IllegalArgumentException("required " + in + " parameter '" + name + "' has no example to ask with");
                }
                continue;
            }
            switch (in) {
                case "path" -> path = path.replace("{" + name + "}", URLEncoder.encode(example, StandardCharsets.UTF_8));
                case "query" -> query.append(query.isEmpty() ? "?" : "&").append(name).append('=')
                        .append(URLEncoder.encode(example, StandardCharsets.UTF_8));
                case "header" -> request.header(name, example);
                default -> { }
            }
        }
        HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.noBody();
        JsonNode content = spec.path("requestBody").path("content");
        if (!content.isMissingNode() && !content.isEmpty()) {
            var first = content.properties().iterator().next();
            String example = example(first.getValue());
            if (example == null) {
                throw new IllegalArgumentException("request body (" + first.getKey() + ") has no example to send");
            }
            request.header("Content-Type", first.getKey());
            body = HttpRequest.BodyPublishers.ofString(example);
        }
        if (adminPassword != null) {
            request.header("Authorization", basic(adminPassword));
        }
        request.uri(base.resolve(path + query)).method(operation.method(), body);
        String asked = operation + (adminPassword == null && needsAdminPath(operation) ? " without credentials" : "")
                + " (" + path + query + ")";
        HttpResponse<InputStream> response = send(request, HttpResponse.BodyHandlers.ofInputStream());
        // the status and headers are what is checked: an event stream is left at once, a body read and dropped
        try (InputStream stream = response.body()) {
            String contentType = response.headers().firstValue("Content-Type").orElse("");
            if (!contentType.startsWith("text/event-stream")) {
                stream.readAllBytes();
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return judge(asked, spec, response);
    }

    private static boolean needsAdminPath(Mapping operation) {
        return operation.path().startsWith("/admin/");
    }

    private static List<String> judge(String asked, JsonNode spec, HttpResponse<?> response) {
        String status = String.valueOf(response.statusCode());
        JsonNode documented = spec.path("responses").has(status) ? spec.path("responses").get(status)
                : spec.path("responses").get("default");
        if (documented == null) {
            return List.of(asked + ": answered " + status + ", documented are " + names(spec.path("responses")));
        }
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        JsonNode content = documented.path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            long length = response.headers().firstValueAsLong("Content-Length").orElse(0);
            return contentType.isEmpty() || length == 0 ? List.of()
                    : List.of(asked + ": answered " + status + " with " + contentType + ", documented without a body");
        }
        for (String mediaType : names(content)) {
            if (compatible(mediaType, contentType)) {
                return List.of();
            }
        }
        return List.of(asked + ": answered " + status + " with Content-Type '" + contentType + "', documented " + names(content));
    }

    private static boolean compatible(String documented, String actual) {
        String bare = actual.split(";")[0].trim().toLowerCase(Locale.ROOT);
        return documented.equals("*/*") || documented.equalsIgnoreCase(bare)
                || (documented.endsWith("/*") && bare.startsWith(documented.substring(0, documented.length() - 1)));
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        return names;
    }

    /** A parameter's or a media type's example: {@code example}, else the first of {@code examples}. */
    private static String example(JsonNode node) {
        JsonNode example = node.get("example");
        if (example == null || example.isNull()) {
            JsonNode examples = node.path("examples");
            if (examples.isObject() && !examples.isEmpty()) {
                example = examples.properties().iterator().next().getValue().get("value");
            }
        }
        if (example == null || example.isNull()) {
            example = node.path("schema").get("example");
        }
        if (example == null || example.isNull()) {
            return null;
        }
        return example.isString() ? example.asString() : example.toString();
    }

    /**
     * {@code method path} asked of {@code base} with these headers and, unless null, this body; the answer with its
     * body as text.
     */
    public static HttpResponse<String> exchange(URI base, String method, String path, Map<String, String> headers,
            String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(request::header);
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The admin's HTTP Basic {@code Authorization}. */
    public static String basic(String adminPassword) {
        return "Basic " + Base64.getEncoder().encodeToString(("admin:" + adminPassword).getBytes(StandardCharsets.UTF_8));
    }

    /** Whether the operation asks for the admin's credentials (its own security, else the document's). */
    public static boolean asksForTheAdmin(JsonNode operation, JsonNode document) {
        return needsAdmin(operation, document);
    }

    /** {@code path} with each path parameter replaced by the operation's example of it; fails where one has none. */
    public static String withExamples(String path, JsonNode operation) {
        String asked = path;
        for (JsonNode parameter : operation.path("parameters")) {
            String example = example(parameter);
            if ("path".equals(parameter.path("in").asString()) && example != null) {
                asked = asked.replace("{" + parameter.path("name").asString() + "}",
                        URLEncoder.encode(example, StandardCharsets.UTF_8));
            }
        }
        if (asked.contains("{")) {
            throw new IllegalArgumentException(path + ": a path parameter has no example to ask with");
        }
        return asked;
    }

    /** The methods the document lists for each path, upper case. */
    public static Map<String, Set<String>> methodsByPath(JsonNode document) {
        Map<String, Set<String>> methods = new TreeMap<>();
        for (var path : document.path("paths").properties()) {
            Set<String> listed = new TreeSet<>();
            for (var operation : path.getValue().properties()) {
                if (METHODS.contains(operation.getKey())) {
                    listed.add(operation.getKey().toUpperCase(Locale.ROOT));
                }
            }
            methods.put(path.getKey(), listed);
        }
        return methods;
    }

    private static <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> handler) {
        try {
            return CLIENT.send(request.build(), handler);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
