package dev.lunchrush.backlogmonitor;

import java.net.URI;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.ApiContract;
import dev.lunchrush.testing.MvcMappings;
import dev.lunchrush.testing.ServiceTestSetup;

import static org.assertj.core.api.Assertions.assertThat;

/** The OpenAPI document against the running service, both ways ({@link ApiContract}); and its probes. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"logging.level.org.apache.kafka=WARN"})
class ApiContractTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ApplicationContext context;

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "backlog-monitor-contract");
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Test
    void everyMappedPathIsDocumentedAndEveryDocumentedOneMapped() {
        JsonNode document = ApiContract.document(base());
        assertThat(document.path("openapi").asString()).startsWith("3.1");
        assertThat(ApiContract.compare(document, MvcMappings.of(context))).isEmpty();
    }

    @Test
    void everyDocumentedOperationAnswersAsDocumented() {
        assertThat(ApiContract.answers(base(), ApiContract.document(base()), "test-admin-secret")).isEmpty();
    }
}
