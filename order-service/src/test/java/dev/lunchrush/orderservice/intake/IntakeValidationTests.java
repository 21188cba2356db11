package dev.lunchrush.orderservice.intake;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.beans.factory.annotation.Autowired;

import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad input on the real intake: each malformed request gets a 4xx problem+json that names the field,
 * and nothing reaches any queue, the feed or a sequence number.
 */
class IntakeValidationTests extends OrderServiceTests {

    @Autowired
    OrderIntake intake;

    @BeforeEach
    void actOneWithEmptyQueues() {
        act("{\"act\":\"shared-queue\"}");
        purgeOrderQueues();
    }

    static Stream<Arguments> malformedOrders() {
        String valid = validOrder();
        return Stream.of(
                Arguments.of("broken JSON", "{\"kitchenId\":\"k3\",", 400, ""),
                Arguments.of("not an object", "[1,2,3]", 400, ""),
                Arguments.of("empty body", "", 400, ""),
                Arguments.of("duplicate key", valid.replace("{\"kitchenId\":\"k3\",", "{\"kitchenId\":\"k3\",\"kitchenId\":\"k1\","), 400, ""),
                Arguments.of("trailing garbage", valid + " {}", 400, ""),
                Arguments.of("missing kitchenId", valid.replace("\"kitchenId\":\"k3\",", ""), 400, "kitchenId"),
                Arguments.of("missing customerId", valid.replace("\"customerId\":\"c-1042\",", ""), 400, "customerId"),
                Arguments.of("missing deliveryAddress", valid.replace("\"deliveryAddress\":\"12 Mill Lane\",", ""), 400, "deliveryAddress"),
                Arguments.of("missing items", """
                        {"kitchenId":"k3","customerId":"c-1","deliveryAddress":"x"}""", 400, "items"),
                Arguments.of("kitchenId a number", valid.replace("\"kitchenId\":\"k3\"", "\"kitchenId\":3"), 400, "kitchenId"),
                Arguments.of("items an object", order("{\"dish\":\"pad-thai\",\"quantity\":1}"), 400, "items"),
                Arguments.of("quantity a string", order("[{\"dish\":\"pad-thai\",\"quantity\":\"two\"}]"), 400, "items[0].quantity"),
                Arguments.of("quantity a fraction", order("[{\"dish\":\"pad-thai\",\"quantity\":2.5}]"), 400, "items[0].quantity"),
                Arguments.of("quantity zero", order("[{\"dish\":\"pad-thai\",\"quantity\":0}]"), 400, "items[0].quantity"),
                Arguments.of("quantity negative", order("[{\"dish\":\"spring-rolls\",\"quantity\":1},{\"dish\":\"pad-thai\",\"quantity\":-3}]"), 400, "items[1].quantity"),
                Arguments.of("quantity absurd", order("[{\"dish\":\"pad-thai\",\"quantity\":5000}]"), 400, "items[0].quantity"),
                Arguments.of("quantity beyond int", order("[{\"dish\":\"pad-thai\",\"quantity\":99999999999999999999}]"), 400, "items[0].quantity"),
                Arguments.of("quantity missing", order("[{\"dish\":\"pad-thai\"}]"), 400, "items[0].quantity"),
                Arguments.of("kitchen not on the menu", valid.replace("\"k3\"", "\"k9\""), 400, "kitchenId"),
                Arguments.of("dish not on the kitchen's menu", order("[{\"dish\":\"margherita\",\"quantity\":1}]"), 400, "items[0].dish"),
                Arguments.of("empty items", order("[]"), 400, "items"),
                Arguments.of("too many items", order(tooManyItems()), 400, "items"),
                Arguments.of("unknown item field", order("[{\"dish\":\"pad-thai\",\"quantity\":1,\"price\":3}]"), 400, "items[0].price"),
                Arguments.of("unknown top-level field", valid.replace("{\"kitchenId\"", "{\"price\":12.5,\"kitchenId\""), 400, "price"),
                Arguments.of("blank customerId", valid.replace("\"c-1042\"", "\"   \""), 400, "customerId"),
                Arguments.of("notes a number", valid.replace("\"no peanuts\"", "42"), 400, "notes"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedOrders")
    void malformedOrderIsRefusedAndNothingIsWritten(String name, String body, int status, String field) {
        long placedBefore = intake.placedTotal();

        HttpResponse<String> response = placeOrder(body);

        assertProblem(response, status, field);
        assertNothingWritten(placedBefore);
    }

    @Test
    void bodyOverTheLimitIs413() {
        long placedBefore = intake.placedTotal();
        String huge = validOrder().replace("\"no peanuts\"", "\"" + "x".repeat(1024 * 1024) + "\"");

        HttpResponse<String> response = placeOrder(huge);

        assertProblem(response, 413, "");
        assertNothingWritten(placedBefore);
    }

    @Test
    void chunkedBodyOverTheLimitIs413() {
        long placedBefore = intake.placedTotal();
        byte[] huge = validOrder().replace("\"no peanuts\"", "\"" + "x".repeat(1024 * 1024) + "\"").getBytes();

        // an InputStream publisher has no length: the body goes chunked, without Content-Length
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/orders"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(huge))));

        assertProblem(response, 413, "");
        assertNothingWritten(placedBefore);
    }

    @Test
    void wrongContentTypeIs415() {
        long placedBefore = intake.placedTotal();

        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/orders"))
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(validOrder())));

        assertProblem(response, 415, "Content-Type");
        assertNothingWritten(placedBefore);
    }

    @Test
    void missingContentTypeIs415() {
        long placedBefore = intake.placedTotal();

        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/orders"))
                .POST(HttpRequest.BodyPublishers.ofString(validOrder())));

        assertProblem(response, 415, "Content-Type");
        assertNothingWritten(placedBefore);
    }

    @Test
    void everyWrongFieldIsNamedInOneAnswer() {
        HttpResponse<String> response = placeOrder("""
                {"kitchenId":"k3","customerId":7,"items":[{"dish":"nope","quantity":0}],"extra":true}""");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(fields(json(response.body()))).containsExactlyInAnyOrder(
                "extra", "customerId", "deliveryAddress", "items[0].dish", "items[0].quantity");
    }

    private void assertProblem(HttpResponse<String> response, int status, String field) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        JsonNode problem = json(response.body());
        assertThat(problem.get("status").intValue()).isEqualTo(status);
        assertThat(problem.get("detail").stringValue()).isNotBlank();
        assertThat(fields(problem)).contains(field);
    }

    private void assertNothingWritten(long placedBefore) {
        assertThat(queueDepth(Topology.SHARED_QUEUE)).isZero();
        assertThat(queueDepth(Topology.KITCHEN_QUEUE)).isZero();
        assertThat(queueDepth(Topology.ANALYTICS_QUEUE)).isZero();
        assertThat(intake.placedTotal()).isEqualTo(placedBefore);
    }

    private static List<String> fields(JsonNode problem) {
        List<String> fields = new ArrayList<>();
        JsonNode errors = problem.get("errors");
        if (errors != null) {
            errors.forEach(error -> fields.add(error.get("field").stringValue()));
        }
        return fields;
    }

    private static String order(String items) {
        return """
                {"kitchenId":"k3","customerId":"c-1","items":%s,"deliveryAddress":"12 Mill Lane"}""".formatted(items);
    }

    private static String tooManyItems() {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            items.add("{\"dish\":\"pad-thai\",\"quantity\":1}");
        }
        return "[" + String.join(",", items) + "]";
    }
}
