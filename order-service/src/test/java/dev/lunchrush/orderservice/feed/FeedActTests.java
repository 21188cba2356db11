package dev.lunchrush.orderservice.feed;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;
import dev.lunchrush.support.topology.OrderQueues;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Act 3 through the real intake: the bounded strategies as a client and the kitchen see them.
 * The feed is written before the kitchen's queue, so what the feed refuses never reaches the kitchen.
 */
class FeedActTests extends OrderServiceTests {

    @BeforeEach
    void emptyFeedAndQueues() {
        purgeOrderQueues();
        pullFeed("max=10000&waitMillis=0");
    }

    @AfterEach
    void backToActOne() {
        pullFeed("max=10000&waitMillis=0");
        act("{\"act\":\"shared-queue\"}");
    }

    @Test
    void throttleAnswers429WithRetryAfterAndTheKitchenGetsOnlyTheAccepted() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"throttle\",\"capacity\":3}");
        JsonNode before = stats();

        List<HttpResponse<String>> responses = place(5);

        assertThat(responses).extracting(HttpResponse::statusCode).containsExactly(201, 201, 201, 429, 429);
        HttpResponse<String> throttled = responses.get(3);
        assertThat(throttled.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(throttled.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(3);
        JsonNode after = stats();
        assertThat(delta(before, after, "rejected")).isEqualTo(2);
        assertThat(after.get("placed").longValue() - before.get("placed").longValue()).isEqualTo(3);
        assertThat(json(pullFeed("max=100&waitMillis=0").body()).size()).isEqualTo(3);
    }

    @Test
    void dropKeepsTheNewestAndTheAccountingIsExact() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"drop\",\"capacity\":4}");
        JsonNode before = stats();

        List<HttpResponse<String>> responses = place(10);
        JsonNode firstBatch = json(pullFeed("max=2&waitMillis=0").body());
        place(3);

        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(201);
        JsonNode after = stats();
        long placed = after.get("placed").longValue() - before.get("placed").longValue();
        long delivered = delta(before, after, "delivered");
        long dropped = delta(before, after, "dropped");
        long buffered = after.get("feed").get("buffered").longValue();
        assertThat(placed).isEqualTo(13);
        assertThat(delivered).isEqualTo(2);
        assertThat(dropped).isEqualTo(6 + 1);
        assertThat(buffered).isEqualTo(4);
        assertThat(placed).isEqualTo(delivered + dropped + buffered);
        // what the job got first were orders 7 and 8 of the 10: the six oldest had been dropped
        assertThat(firstBatch.get(0).get("orderId").stringValue()).isEqualTo(orderId(responses.get(6)));
        assertThat(firstBatch.get(1).get("orderId").stringValue()).isEqualTo(orderId(responses.get(7)));
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(13);
    }

    @Test
    void blockMakesTheOrderWaitThen503AndTheKitchenWaitsToo() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"block\",\"capacity\":2}");
        place(2);

        long start = System.nanoTime();
        HttpResponse<String> blocked = placeOrder();
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(blocked.statusCode()).isEqualTo(503);
        assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(450));
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(2);

        assertThat(json(pullFeed("max=1&waitMillis=0").body()).size()).isEqualTo(1);
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(3);
    }

    @Test
    void anOrderTheKitchensQueueRefusesIs503AndNeverReachesTheJob() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"drop\",\"capacity\":10}");
        JsonNode before = stats();
        // the kitchen's queue gone, the mandatory publish comes back unroutable
        rabbitAdmin.deleteQueue(Topology.KITCHEN_QUEUE);
        HttpResponse<String> refused;
        try {
            refused = placeOrder();
        }
        finally {
            rabbitAdmin.declareQueue(OrderQueues.orderQueue(Topology.KITCHEN_QUEUE));
        }

        assertThat(refused.statusCode()).isEqualTo(503);
        JsonNode after = stats();
        assertThat(delta(before, after, "accepted")).as("accepted into the feed").isZero();
        assertThat(after.get("feed").get("buffered").longValue()).as("buffered").isZero();
        assertThat(after.get("placed").longValue()).isEqualTo(before.get("placed").longValue());
        assertThat(json(pullFeed("max=100&waitMillis=0").body()).size()).as("events the job gets").isZero();
        // the room it held is free again: the next order goes through to both
        assertThat(placeOrder().statusCode()).isEqualTo(201);
        assertThat(delta(after, stats(), "accepted")).isEqualTo(1);
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isEqualTo(1);
    }

    @Test
    void aPullWithoutTheJobsCredentialIs401ProblemAndTakesNothing() {
        act("{\"act\":\"memory-feed\",\"strategy\":\"unbounded\"}");
        assertThat(placeOrder().statusCode()).isEqualTo(201);

        HttpResponse<String> anonymous = get("/feed?max=10000&waitMillis=0");
        HttpResponse<String> wrongPassword = send(java.net.http.HttpRequest.newBuilder(uri("/feed?max=10000&waitMillis=0"))
                .header("Authorization", basic("admin", "not-" + ADMIN_PASSWORD)).GET());
        HttpResponse<String> viewer = send(java.net.http.HttpRequest.newBuilder(uri("/feed?max=10000&waitMillis=0"))
                .header("Authorization", basic("viewer", VIEWER_PASSWORD)).GET());

        for (HttpResponse<String> refused : List.of(anonymous, wrongPassword, viewer)) {
            assertThat(refused.statusCode()).isEqualTo(401);
            assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                    challenge -> assertThat(challenge).startsWith("Basic"));
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(json(refused.body()).get("status").intValue()).isEqualTo(401);
            assertThat(json(refused.body()).get("instance").stringValue()).isEqualTo("/feed");
        }
        HttpResponse<String> job = pullFeed("max=10000&waitMillis=0");
        assertThat(job.statusCode()).isEqualTo(200);
        assertThat(json(job.body()).size()).as("the event the refused pulls left in the feed").isEqualTo(1);
    }

    @Test
    void feedRequestWithBadParametersIs400() {
        HttpResponse<String> response = pullFeed("max=-1&waitMillis=x");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).get("errors").get(0).get("field").stringValue()).isEqualTo("max");
    }

    private List<HttpResponse<String>> place(int count) {
        List<HttpResponse<String>> responses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            responses.add(placeOrder());
        }
        return responses;
    }

    private JsonNode stats() {
        return json(get("/api/stats").body());
    }

    private static long delta(JsonNode before, JsonNode after, String field) {
        return after.get("feed").get(field).longValue() - before.get("feed").get(field).longValue();
    }

    private static String orderId(HttpResponse<String> response) {
        return json(response.body()).get("orderId").stringValue();
    }
}
