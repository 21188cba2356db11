package dev.lunchrush.orderservice;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Topology;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An endpoint that changes state does so only for the method it is meant for: every other method, with and without
 * the admin's credential, changes nothing. Spring answers {@code HEAD} by running the {@code GET} handler, so the
 * feed (the one {@code GET} that takes something) is asked with each method, over each spelling of its path the
 * handler mapping takes; the intake, the act switch and the import with each method but their own.
 */
class RequestMethodsTests extends OrderServiceTests {

    private static final List<String> METHODS = List.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE");

    /**
     * The feed's path and other spellings of it: each is answered as {@code /feed} is, or refused before (Spring
     * Security's firewall: 400), or not found (404).
     */
    private static final List<String> FEED_PATHS = List.of("/feed", "/fe%65d", "/feed;x=1", "/feed/", "//feed");

    private static final Pattern DELIVERED = Pattern.compile("(?m)^order_feed_delivered_total\\{[^}]*} (\\S+)$");

    @BeforeEach
    void threeEventsInTheFeed() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"unbounded\"}");
        pullFeed("max=10000&waitMillis=0");
        for (int i = 0; i < 3; i++) {
            assertThat(placeOrder().statusCode()).isEqualTo(201);
        }
    }

    @AfterEach
    void backToActOne() {
        pullFeed("max=10000&waitMillis=0");
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void theFeedGivesEventsOnlyToTheJobsAuthenticatedGet() {
        JsonNode before = feedFigures();
        double deliveredBefore = deliveredTotal();

        for (String path : FEED_PATHS) {
            for (String method : METHODS) {
                for (String credential : new String[] {null, basic("admin", ADMIN_PASSWORD)}) {
                    if (method.equals("GET") && credential != null) {
                        continue;
                    }
                    HttpResponse<String> answer = request(method, path + "?max=100&waitMillis=0", credential, null);
                    String asked = method + " " + path + (credential == null ? " without" : " with") + " the credential";
                    int expected = method.equals("GET") ? 401 : 405;
                    if (!path.equals("/feed") && answer.statusCode() != expected) {
                        assertThat(answer.statusCode()).as(asked + ": " + answer.body()).isIn(400, 404);
                        expected = answer.statusCode();
                    }
                    assertThat(answer.statusCode()).as(asked + ": " + answer.body()).isEqualTo(expected);
                    assertThat(answer.headers().firstValue("Content-Type")).as(asked).hasValueSatisfying(
                            type -> assertThat(type).startsWith("application/problem+json"));
                    if (expected == 405 && !method.equals("TRACE")) {
                        // TRACE is refused by Spring Security's firewall for every path, before the resource is known
                        assertThat(answer.headers().firstValue("Allow")).as(asked).hasValue("GET");
                    }
                    if (!method.equals("HEAD")) {
                        assertThat(json(answer.body()).get("status").intValue()).as(asked).isEqualTo(expected);
                    }
                }
            }
        }

        assertThat(deliveredTotal()).as("order_feed_delivered_total").isEqualTo(deliveredBefore);
        JsonNode after = feedFigures();
        assertThat(after.get("delivered").longValue()).as("delivered").isEqualTo(before.get("delivered").longValue());
        assertThat(after.get("buffered").longValue()).as("buffered").isEqualTo(3);
        HttpResponse<String> job = pullFeed("max=100&waitMillis=0");
        assertThat(job.statusCode()).isEqualTo(200);
        assertThat(json(job.body()).size()).as("the events every other request left to the job").isEqualTo(3);
        assertThat(deliveredTotal()).isEqualTo(deliveredBefore + 3);
    }

    @Test
    void noEndpointChangesStateForAMethodItIsNotMeantFor() {
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
        String customer = "c-methods-" + UUID.randomUUID();
        String order = validOrder().replace("c-1042", customer);
        String imported = """
                [{"placedAt":"%s","kitchenId":"k3","customerId":"%s","items":[{"dish":"pad-thai","quantity":2}],
                  "deliveryAddress":"12 Mill Lane"}]""".formatted(Instant.now().minus(Duration.ofHours(1)), customer);
        record Endpoint(String method, String path, String body) {
        }
        List<Endpoint> endpoints = List.of(
                new Endpoint("GET", "/feed?max=100&waitMillis=0", ""),
                new Endpoint("POST", "/orders", order),
                new Endpoint("PUT", "/admin/act", "{\"act\":\"log\"}"),
                new Endpoint("POST", "/admin/orders/import", imported));
        long placedBefore = json(get("/api/stats").body()).get("placed").longValue();
        double deliveredBefore = deliveredTotal();

        List<String> changed = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            for (String method : METHODS) {
                if (method.equals(endpoint.method())) {
                    continue;
                }
                for (String credential : new String[] {null, basic("admin", ADMIN_PASSWORD)}) {
                    HttpResponse<String> answer = request(method, endpoint.path(), credential, endpoint.body());
                    if (answer.statusCode() < 400 && !method.equals("OPTIONS")) {
                        changed.add(method + " " + endpoint.path() + " answered " + answer.statusCode());
                    }
                }
            }
        }

        assertThat(changed).as("requests answered as if they had been done").isEmpty();
        assertThat(json(get("/api/stats").body()).get("placed").longValue()).as("orders placed").isEqualTo(placedBefore);
        assertThat(json(get("/api/act").body()).get("act").stringValue()).isEqualTo("shared-queue");
        assertThat(queueDepth(Topology.SHARED_QUEUE)).as("orders in the queue").isZero();
        assertThat(deliveredTotal()).as("order_feed_delivered_total").isEqualTo(deliveredBefore);
        assertThat(json(pullFeed("max=100&waitMillis=0").body()).size()).as("events left in the feed").isEqualTo(3);
        assertThat(OrdersTopic.readAll(event -> event.customerId().equals(customer))).as("orders in the log").isEmpty();
    }

    private HttpResponse<String> request(String method, String path, @Nullable String authorization, @Nullable String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).method(method,
                body == null || body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null && !body.isEmpty()) {
            request.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return send(request);
    }

    private JsonNode feedFigures() {
        return json(get("/api/stats").body()).get("feed");
    }

    /** {@code order_feed_delivered_total} as Prometheus scrapes it. */
    private double deliveredTotal() {
        Matcher delivered = DELIVERED.matcher(get("/actuator/prometheus").body());
        assertThat(delivered.find()).as("order_feed_delivered_total in /actuator/prometheus").isTrue();
        return Double.parseDouble(delivered.group(1));
    }
}
