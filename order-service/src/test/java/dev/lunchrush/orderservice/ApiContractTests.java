package dev.lunchrush.orderservice;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.events.OrderLimits;
import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.testing.ApiContract;
import dev.lunchrush.testing.ApiContract.Mapping;
import dev.lunchrush.testing.FluxMappings;
import dev.lunchrush.testing.ServiceApiContract;
import dev.lunchrush.testing.ServiceTestSetup;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document against the running service, both ways ({@link ServiceApiContract}), in a context of its own:
 * its sample requests place an order, import one and take from the feed, which no other test's counts may see.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ApiContractTests extends ServiceApiContract {

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "order-service-contract");
    }

    @Override
    protected String adminPassword() {
        return OrderServiceTests.ADMIN_PASSWORD;
    }

    @Override
    protected Set<Mapping> mapped() {
        return FluxMappings.of((ConfigurableApplicationContext) context());
    }

    @Test
    void theIntakeIsMapped() {
        assertThat(mapped()).contains(new Mapping("POST", "/orders"));
    }

    @Test
    void theIntakesHeadersAndProblemsAreDocumented() {
        JsonNode place = ApiContract.document(base()).path("paths").path("/orders").path("post");
        assertThat(place.path("parameters").findValuesAsString("name")).contains("Idempotency-Key");
        assertThat(place.path("responses").path("201").path("headers").has("Location")).isTrue();
        assertThat(place.path("responses").path("429").path("headers").has("Retry-After")).isTrue();
        for (String status : new String[] {"400", "413", "415", "422", "429", "503"}) {
            assertThat(place.path("responses").path(status).path("content").has("application/problem+json"))
                    .as("POST /orders %s is a problem document", status).isTrue();
        }
    }

    /** The order's constraints, declared once on its records, are the document's: a client sees every limit. */
    @Test
    void theOrdersConstraintsAreDocumented() {
        JsonNode schemas = ApiContract.document(base()).path("components").path("schemas");
        JsonNode order = schemas.path("OrderRequest");
        assertThat(order.path("required").valueStream().map(JsonNode::asString))
                .containsExactlyInAnyOrder("kitchenId", "customerId", "items", "deliveryAddress");
        assertThat(order.path("properties").path("kitchenId").path("maxLength").asInt()).isEqualTo(OrderLimits.MAX_ID_LENGTH);
        assertThat(order.path("properties").path("customerId").path("maxLength").asInt()).isEqualTo(OrderLimits.MAX_ID_LENGTH);
        assertThat(order.path("properties").path("deliveryAddress").path("maxLength").asInt())
                .isEqualTo(OrderLimits.MAX_ADDRESS_LENGTH);
        assertThat(order.path("properties").path("notes").path("maxLength").asInt()).isEqualTo(OrderLimits.MAX_NOTES_LENGTH);
        assertThat(order.path("properties").path("items").path("minItems").asInt()).isEqualTo(1);
        assertThat(order.path("properties").path("items").path("maxItems").asInt()).isEqualTo(OrderLimits.MAX_ITEMS);
        JsonNode item = schemas.path("OrderItem");
        assertThat(item.path("required").valueStream().map(JsonNode::asString)).contains("dish", "quantity");
        assertThat(item.path("properties").path("dish").path("maxLength").asInt()).isEqualTo(OrderLimits.MAX_ID_LENGTH);
        assertThat(item.path("properties").path("quantity").path("minimum").asInt()).isEqualTo(1);
        assertThat(item.path("properties").path("quantity").path("maximum").asInt()).isEqualTo(OrderLimits.MAX_QUANTITY);
    }

    /** The act's constraints, declared once on its record, are the document's. */
    @Test
    void theActsConstraintsAreDocumented() {
        JsonNode act = ApiContract.document(base()).path("components").path("schemas").path("ActRequest");
        assertThat(act.path("required").valueStream().map(JsonNode::asString)).containsExactly("act");
        assertThat(act.path("properties").path("act").path("pattern").asString()).contains("memory-feed");
        assertThat(act.path("properties").path("strategy").path("pattern").asString()).contains("throttle");
        assertThat(act.path("properties").path("capacity").path("minimum").asInt()).isEqualTo(1);
    }

    /** The import's elements are orders as {@code POST /orders} takes them, with their constraints, and a placedAt. */
    @Test
    void theImportsElementsAreDocumentedAsOrders() {
        JsonNode document = ApiContract.document(base());
        JsonNode body = document.path("paths").path("/admin/orders/import").path("post").path("requestBody").path("content")
                .path("application/json").path("schema");
        assertThat(body.path("type").asString()).as(body.toString()).isEqualTo("array");
        assertThat(body.path("items").path("$ref").asString()).as(body.toString()).endsWith("/ImportedOrder");
        JsonNode imported = document.path("components").path("schemas").path("ImportedOrder");
        assertThat(imported.toString()).as(imported.toString()).contains("#/components/schemas/OrderRequest").contains("placedAt");
        assertThat(imported.findValues("required").toString()).as(imported.toString()).contains("placedAt");
    }

    /** {@code /orders} takes {@code POST} alone: any other method is told so, not that nothing is there. */
    @Test
    void theIntakesPathAnswersAnotherMethod405WithAllowPost() {
        for (String method : new String[] {"GET", "PUT", "DELETE"}) {
            HttpResponse<String> answer = ApiContract.exchange(base(), method, "/orders", Map.of(), null);
            assertProblem(method + " /orders", answer, ProblemType.METHOD_NOT_ALLOWED);
            assertThat(answer.headers().firstValue("Allow")).as(method + " /orders: Allow").hasValue("POST");
        }
    }

    @Test
    void theIntakes503sNameTheirTypes() {
        String unavailable = ApiContract.document(base()).path("paths").path("/orders").path("post").path("responses")
                .path("503").path("description").asString();
        for (ProblemType type : new ProblemType[] {ProblemType.NOT_ACCEPTED, ProblemType.OUTCOME_UNKNOWN, ProblemType.STILL_RUNNING}) {
            assertThat(unavailable).as("POST /orders 503").contains(type.uri().toString());
        }
    }
}
