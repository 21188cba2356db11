package dev.lunchrush.testing;

import java.net.URI;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import dev.lunchrush.testing.ApiContract.Mapping;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service's OpenAPI document against the running service, both ways ({@link ApiContract}): every mapped path is
 * documented, and every documented operation answers as documented, with and without the admin's credentials. A
 * module's {@code ApiContractTests} extends it with its {@code @SpringBootTest} (on a random port) and what its
 * context needs; it overrides {@link #adminPassword()} or {@link #mapped()} where its own differ.
 */
public abstract class ServiceApiContract {

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
}
