package dev.lunchrush.testing;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.testing.ApiContract.Mapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service's OpenAPI document against the running service, both ways ({@link ApiContract}): every mapped path is
 * documented, and every documented operation answers as documented, with and without the admin's credentials. And
 * what no document lists, the same on every service: an unknown path, a method a path does not take, a request
 * without the credentials it needs and a body of another media type are each answered with a problem document
 * ({@code application/problem+json}) whose {@code type} says which ({@link ProblemType}). A module's
 * {@code ApiContractTests} extends it with its {@code @SpringBootTest} (on a random port) and what its context needs;
 * it overrides {@link #adminPassword()}, {@link #mapped()} or {@link #securedRequest()} where its own differ.
 */
public abstract class ServiceApiContract {

    private static final JsonMapper PROBLEMS = JsonMapper.builder().build();

    @LocalServerPort
    private int port;

    @Autowired
    private ApplicationContext context;

    /** The running service. */
    protected URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    protected ApplicationContext context() {
        return context;
    }

    /** The admin password the test's context runs with. */
    protected String adminPassword() {
        return "test-admin-secret";
    }

    /**
     * A request the service refuses without credentials: anything under {@code /admin/**}, mapped or not, on the
     * services that take the admin's HTTP Basic there ({@code AdminSecurityConfiguration}).
     */
    protected Mapping securedRequest() {
        return new Mapping("GET", "/admin/contract-probe");
    }

    /** The service's own handler mappings: Spring MVC's ({@link MvcMappings}) unless the service says otherwise. */
    protected Set<Mapping> mapped() {
        return MvcMappings.of(context);
    }

    @Test
    void everyMappedPathIsDocumentedAndEveryDocumentedOneMapped() {
        JsonNode document = ApiContract.document(base());
        assertThat(document.path("openapi").asString()).startsWith("3.1");
        assertThat(ApiContract.compare(document, mapped())).isEmpty();
    }

    @Test
    void everyDocumentedOperationAnswersAsDocumented() {
        assertThat(ApiContract.answers(base(), ApiContract.document(base()), adminPassword())).isEmpty();
    }

    @Test
    void anUnknownPathIsANotFoundProblem() {
        String path = "/no-such-page-" + UUID.randomUUID();
        HttpResponse<String> answer = ApiContract.exchange(base(), "GET", path, Map.of(), null);
        assertProblem("GET " + path, answer, ProblemType.NOT_FOUND);
    }

    /**
     * Each open path of the document (no path parameter, no credentials needed) asked with a method it does not list:
     * 405, with an {@code Allow} that lists the documented ones.
     */
    @Test
    void aMethodAPathDoesNotTakeIsAMethodNotAllowedProblemWithAllow() {
        JsonNode document = ApiContract.document(base());
        int asked = 0;
        for (Map.Entry<String, Set<String>> path : ApiContract.methodsByPath(document).entrySet()) {
            if (path.getKey().contains("{") || needsCredentials(document, path.getKey())) {
                continue;
            }
            String method = path.getValue().contains("DELETE") ? "PATCH" : "DELETE";
            HttpResponse<String> answer = ApiContract.exchange(base(), method, path.getKey(), Map.of(), null);
            String request = method + " " + path.getKey();
            assertProblem(request, answer, ProblemType.METHOD_NOT_ALLOWED);
            Set<String> allowed = Arrays.stream(answer.headers().firstValue("Allow").orElse("").split(","))
                    .map(String::strip).filter(allow -> !allow.isEmpty()).map(allow -> allow.toUpperCase(Locale.ROOT))
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(allowed).as(request + ": Allow").containsAll(path.getValue());
            asked++;
        }
        assertThat(asked).as("open paths of the document asked with another method").isPositive();
    }

    @Test
    void aRequestWithoutCredentialsIsAnUnauthorizedProblemWithAChallenge() {
        Mapping secured = securedRequest();
        HttpResponse<String> answer = ApiContract.exchange(base(), secured.method(), secured.path(), Map.of(), null);
        assertProblem(secured + " without credentials", answer, ProblemType.UNAUTHORIZED);
        assertThat(answer.headers().firstValue("WWW-Authenticate")).as(secured + ": WWW-Authenticate")
                .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Basic"));
    }

    /**
     * Each documented operation that reads a JSON body, sent one of another media type (with the admin's credentials
     * where it needs them, so that the body is what is refused): 415. A service with no such operation has nothing
     * to ask.
     */
    @Test
    void aBodyOfAnotherMediaTypeIsAnUnsupportedMediaTypeProblem() {
        JsonNode document = ApiContract.document(base());
        for (var path : document.path("paths").properties()) {
            for (var operation : path.getValue().properties()) {
                if (!operation.getValue().path("requestBody").path("content").has("application/json")) {
                    continue;
                }
                String method = operation.getKey().toUpperCase(Locale.ROOT);
                String asked = ApiContract.withExamples(path.getKey(), operation.getValue());
                Map<String, String> headers = ApiContract.asksForTheAdmin(operation.getValue(), document)
                        ? Map.of("Content-Type", "text/plain", "Authorization", ApiContract.basic(adminPassword()))
                        : Map.of("Content-Type", "text/plain");
                HttpResponse<String> answer = ApiContract.exchange(base(), method, asked, headers, "not json");
                assertProblem(method + " " + asked + " with text/plain", answer, ProblemType.UNSUPPORTED_MEDIA_TYPE);
            }
        }
    }

    /**
     * A path refused before any handler, by Spring Security's firewall (a {@code ;} or a {@code //} in it) or by the
     * web server itself (an encoded {@code /}): 400 {@code rejected-request}, a problem document like every other error.
     */
    @Test
    void aPathTheFirewallRefusesIsARejectedRequestProblem() {
        for (String path : new String[] {"/no-such-page;jsessionid=1", "/no-such//page", "/no-such%2Fpage"}) {
            HttpResponse<String> answer = ApiContract.exchange(base(), "GET", path, Map.of(), null);
            assertProblem("GET " + path, answer, ProblemType.REJECTED_REQUEST);
        }
    }

    /** Every problem type the document names ({@code https://lunchrush.dev/problems/…}) is one the services have. */
    @Test
    void everyProblemTypeTheDocumentNamesIsOne() {
        String document = ApiContract.document(base()).toString();
        Set<String> known = Arrays.stream(ProblemType.values()).map(ProblemType::slug).collect(Collectors.toSet());
        List<String> unknown = new ArrayList<>();
        Matcher named = Pattern.compile(Pattern.quote(ProblemType.BASE) + "([a-z0-9-]+)").matcher(document);
        while (named.find()) {
            if (!known.contains(named.group(1))) {
                unknown.add(named.group());
            }
        }
        assertThat(unknown).as("problem types named in the document that no ProblemType has").isEmpty();
    }

    /** Whether any operation of {@code path} asks for credentials, or the path lies where every request needs them. */
    private boolean needsCredentials(JsonNode document, String path) {
        if (path.startsWith("/admin/")) {
            return true;
        }
        for (var operation : document.path("paths").path(path).properties()) {
            if (operation.getValue().isObject() && operation.getValue().has("responses")
                    && ApiContract.asksForTheAdmin(operation.getValue(), document)) {
                return true;
            }
        }
        return false;
    }

    /** {@code answer} is a problem document of {@code type}: its status, media type, {@code type} and {@code status}. */
    protected static void assertProblem(String asked, HttpResponse<String> answer, ProblemType type) {
        assertThat(answer.statusCode()).as(asked + ": " + answer.body()).isEqualTo(type.status().value());
        assertThat(answer.headers().firstValue("Content-Type")).as(asked + ": Content-Type")
                .hasValueSatisfying(contentType -> assertThat(contentType).startsWith("application/problem+json"));
        JsonNode problem = PROBLEMS.readTree(answer.body());
        assertThat(problem.path("type").asString("")).as(asked + ": type, in " + answer.body()).isEqualTo(type.uri().toString());
        assertThat(problem.path("status").asInt()).as(asked + ": status, in " + answer.body()).isEqualTo(type.status().value());
    }
}
