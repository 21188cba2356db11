package dev.lunchrush.controlroom;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The API over HTTP, against a stub order service (its menu, and a 201 for every order) and no other service: who may
 * change the lesson, the 400s that name the field, one rush at a time, a rush stopped, and the lesson with the
 * services down.
 */
@StubbedControlRoomTest
class ControlRoomApiTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    private HttpResponse<String> send(String method, String path, String body, String user, String password) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        return send(method, path, body, "admin", StubbedControlRoomTest.ADMIN_PASSWORD);
    }

    @Test
    void onlyTheAdminChangesTheLesson() throws Exception {
        String rush = "{\"rate\":10,\"duration\":\"1s\"}";
        assertThat(send("POST", "/api/rushes", rush, null, null).statusCode()).isEqualTo(401);
        assertThat(send("POST", "/api/rushes", rush, "viewer", StubbedControlRoomTest.VIEWER_PASSWORD).statusCode()).isEqualTo(403);
        assertThat(send("PUT", "/api/act", "{\"act\":\"log\"}", "admin", "wrong").statusCode()).isEqualTo(401);
        assertThat(send("GET", "/api/session", null, "viewer", StubbedControlRoomTest.VIEWER_PASSWORD).body()).contains("\"admin\":false");
        assertThat(admin("GET", "/api/session", null).body()).contains("\"admin\":true");
        assertThat(send("GET", "/api/session", null, null, null).statusCode()).isEqualTo(401);
    }

    @Test
    void badOptionsAre400sNamingTheField() throws Exception {
        assertField(admin("POST", "/api/rushes", "{\"profile\":\"custom\",\"rate\":100,\"duration\":\"5s\"}"), "thenRate");
        assertField(admin("POST", "/api/rushes", "{\"rate\":100,\"duration\":\"soon\"}"), "duration");
        assertField(admin("POST", "/api/rushes", "{\"rate\":\"fast\",\"duration\":\"5s\"}"), "rate");
        assertField(admin("POST", "/api/rushes", "{\"speed\":0}"), "speed");
        // past what a Duration's nanoseconds hold
        assertField(admin("POST", "/api/rushes", "{\"rate\":10,\"duration\":\"3000000h\"}"), "duration");
        assertField(admin("POST", "/api/rushes", "{\"rates\":100}"), "rates");
        assertField(admin("PUT", "/api/act", "{\"act\":\"brunch\"}"), "act");
        assertField(admin("PUT", "/api/act", "{\"act\":\"log\",\"strategy\":\"drop\"}"), "strategy");
        assertField(admin("PUT", "/api/act", "{\"act\":\"memory-feed\",\"capacity\":-3}"), "capacity");
        HttpResponse<String> unreadable = admin("POST", "/api/rushes", "{not json");
        assertThat(unreadable.statusCode()).isEqualTo(400);
        assertThat(unreadable.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    private static void assertField(HttpResponse<String> response, String field) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("errors").get(0).path("field").asString()).as(response.body()).isEqualTo(field);
    }

    @Test
    void oneRushAtATimeAndAStoppedOneReportsWhatItMeasured() throws Exception {
        HttpResponse<String> started = admin("POST", "/api/rushes", "{\"rate\":20,\"duration\":\"30s\",\"seed\":1}");
        assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
        String location = started.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith("/api/rushes/");
        HttpResponse<String> second = admin("POST", "/api/rushes", "{\"rate\":20,\"duration\":\"5s\"}");
        assertThat(second.statusCode()).isEqualTo(409);
        assertThat(second.headers().firstValue("Content-Type")).hasValue("application/problem+json");

        // a second of orders placed at least (the driver opens its first connection before its first order)
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            JsonNode rows = JSON.readTree(admin("GET", location, null).body()).path("rows");
            return rows.size() > 0 && rows.get(rows.size() - 1).path("placed").asLong() >= 20;
        });
        assertThat(admin("DELETE", location, null).statusCode()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(60)).until(() -> "stopped".equals(
                JSON.readTree(admin("GET", location, null).body()).path("state").asString()));
        JsonNode view = JSON.readTree(admin("GET", location, null).body());
        // the JSON of ./demo rush --json, under the view's own fields
        assertThat(view.path("orders").path("placed").asLong()).isPositive().isLessThan(600);
        assertThat(view.path("profile").asString()).isEqualTo("constant");
        assertThat(view.has("snapshots")).isTrue();
        assertThat(view.has("lesson")).isTrue();
        assertThat(view.path("console").toString()).contains("Rush 'constant' at speed 1: 20/s for 30 s");
        assertThat(view.path("rows").get(0).path("cells").size()).isEqualTo(13);
        assertThat(admin("DELETE", location, null).statusCode()).as("an ended rush is left as it is").isEqualTo(200);
    }

    @Test
    void theLessonSaysWhoIsDown() throws Exception {
        HttpResponse<String> response = send("GET", "/api/lesson", null, null, null);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode lesson = JSON.readTree(response.body());
        assertThat(lesson.path("services").toString()).contains("{\"name\":\"kitchen-screen\",\"state\":\"down\"}");
        assertThat(lesson.path("alerts").path("prometheus").asBoolean()).isFalse();
        // no tool answers: the page shows no link to any (as under ./demo up without Prometheus)
        JsonNode tools = lesson.path("tools");
        assertThat(tools.path("prometheusAlerts").asString(null)).isNull();
        assertThat(tools.path("grafana").isBoolean() && !tools.path("grafana").asBoolean()).as(tools.toString()).isTrue();
        assertThat(tools.path("kafkaUi").isBoolean() && !tools.path("kafkaUi").asBoolean()).as(tools.toString()).isTrue();
        assertThat(send("GET", "/actuator/health/readiness", null, null, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", "/v3/api-docs", null, null, null).body()).contains("/api/rushes/{id}");
    }
}
