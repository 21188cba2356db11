package dev.lunchrush.analyticsdashboard;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.ApiContract;
import dev.lunchrush.testing.ServiceApiContract;
import dev.lunchrush.testing.ServiceTestSetup;

import static org.assertj.core.api.Assertions.assertThat;

/** The analytics dashboard's OpenAPI document against the running service, both ways ({@link ServiceApiContract}). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"lunchrush.order-service.url=http://127.0.0.1:1", "lunchrush.feed.enabled=false"})
class ApiContractTests extends ServiceApiContract {

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "analytics-dashboard-contract");
    }

    /** The capacity's constraints, declared once on its record, are the document's. */
    @Test
    void theCapacitysConstraintsAreDocumented() {
        JsonNode change = ApiContract.document(base()).path("components").path("schemas").path("CapacityChange");
        assertThat(change.path("required").valueStream().map(JsonNode::asString)).containsExactly("eventsPerSecond");
        assertThat(change.path("properties").path("eventsPerSecond").path("minimum").asInt()).isEqualTo(1);
        assertThat(change.path("properties").path("eventsPerSecond").path("maximum").asInt()).isEqualTo(1_000_000);
    }
}
