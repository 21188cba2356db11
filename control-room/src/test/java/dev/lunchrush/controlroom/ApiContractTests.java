package dev.lunchrush.controlroom;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.load.rush.RushOptions;
import dev.lunchrush.testing.ApiContract;
import dev.lunchrush.testing.ApiContract.Mapping;
import dev.lunchrush.testing.ServiceApiContract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The control room's OpenAPI document against the running app, both ways ({@link ServiceApiContract}). The order
 * service is a stub (its menu, a 201 for every order, its act); the other services are down
 * ({@link StubbedControlRoomTest}).
 */
@StubbedControlRoomTest
class ApiContractTests extends ServiceApiContract {

    @Override
    protected String adminPassword() {
        return StubbedControlRoomTest.ADMIN_PASSWORD;
    }

    /** No {@code /admin/**} here: what changes the lesson takes the admin's credentials. */
    @Override
    protected Mapping securedRequest() {
        return new Mapping("PUT", "/api/act");
    }

    /**
     * The documented {@code POST /api/rushes} starts a real (short) rush: it is stopped and awaited, so that the stack's
     * rush marker is free for the next test (one rush at a time on a stack, whichever JVM runs it), and no rush of the
     * room's runs for the next test class that shares the application ({@link StubbedControlRoomTest}).
     */
    @AfterEach
    void noRushLeftRunning() {
        HttpClient http = HttpClient.newHttpClient();
        JsonMapper json = JsonMapper.builder().build();
        String admin = "Basic " + Base64.getEncoder()
                .encodeToString(("admin:" + adminPassword()).getBytes(StandardCharsets.UTF_8));
        // asked at once, not a poll interval later: after most tests no rush runs
        await().atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500)).until(() -> {
            boolean running = false;
            HttpResponse<String> list = http.send(HttpRequest.newBuilder(base().resolve("/api/rushes")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            for (JsonNode rush : json.readTree(list.body())) {
                if ("running".equals(rush.path("state").asString())) {
                    running = true;
                    http.send(HttpRequest.newBuilder(base().resolve("/api/rushes/" + rush.path("id").asString()))
                            .header("Authorization", admin).DELETE().build(), HttpResponse.BodyHandlers.discarding());
                }
            }
            return !running;
        });
    }

    /** The bodies' constraints, declared once on their records, are the document's. */
    @Test
    void theBodiesConstraintsAreDocumented() {
        JsonNode schemas = ApiContract.document(base()).path("components").path("schemas");
        JsonNode act = schemas.path("ActRequest");
        assertThat(act.path("required").valueStream().map(JsonNode::asString)).containsExactly("act");
        assertThat(act.path("properties").path("act").path("pattern").asString()).contains("memory-feed");
        assertThat(act.path("properties").path("capacity").path("minimum").asInt()).isEqualTo(1);
        JsonNode rush = schemas.path("RushRequest").path("properties");
        assertThat(rush.path("speed").path("minimum").asDouble()).isEqualTo(RushOptions.MIN_SPEED);
        assertThat(rush.path("speed").path("maximum").asDouble()).isEqualTo(RushOptions.MAX_SPEED);
        assertThat(rush.path("rate").path("maximum").asDouble()).isEqualTo(RushOptions.MAX_RATE);
        assertThat(rush.path("thenRate").path("minimum").asDouble()).isEqualTo(RushOptions.MIN_RATE);
        assertThat(rush.path("count").path("maximum").asLong()).isEqualTo(RushOptions.MAX_COUNT);
        assertThat(rush.path("maxInFlight").path("minimum").asLong()).isEqualTo(RushOptions.MIN_IN_FLIGHT);
        assertThat(rush.path("maxInFlight").path("maximum").asLong()).isEqualTo(RushOptions.MAX_IN_FLIGHT);
        assertThat(rush.path("dashboardCapacity").path("maximum").asDouble()).isEqualTo(RushOptions.MAX_DASHBOARD_CAPACITY);
        assertThat(rush.path("budgetMb").path("minimum").asDouble()).isEqualTo(RushOptions.MIN_BUDGET_MB);
        assertThat(rush.path("budgetMb").path("maximum").asDouble()).isEqualTo(RushOptions.MAX_BUDGET_MB);
        assertThat(rush.path("duration").path("maxLength").asInt()).isPositive();
        assertThat(rush.path("duration").path("pattern").asString()).isNotEmpty();
    }
}
