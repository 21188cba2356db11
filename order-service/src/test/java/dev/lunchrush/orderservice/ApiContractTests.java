package dev.lunchrush.orderservice;

import java.net.URI;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;

import dev.lunchrush.testing.ApiContract;
import dev.lunchrush.testing.ApiContract.Mapping;
import dev.lunchrush.testing.ServiceTestSetup;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document against the running service, both ways ({@link ApiContract}), in a context of its own: its
 * sample requests place an order, import one and take from the feed, which no other test's counts may see.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ApiContractTests {

    @LocalServerPort
    private int port;

    @Autowired
    private ConfigurableApplicationContext context;

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "order-service-contract");
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** A route as a router function describes itself: {@code (POST && /orders)}. */
    private static final Pattern ROUTE = Pattern.compile("\\((GET|POST|PUT|DELETE|PATCH) && (/[^ )]*)\\)");

    /** WebFlux's annotated handler mappings of this service's controllers, and the routes of its router functions. */
    private Set<Mapping> mapped() {
        Set<Mapping> mappings = new TreeSet<>();
        context.getBeansOfType(RouterFunction.class).forEach((name, routes) -> {
            BeanDefinition definition = context.getBeanFactory().getBeanDefinition(name);
            if (definition instanceof AnnotatedBeanDefinition annotated && annotated.getFactoryMethodMetadata() != null
                    && annotated.getFactoryMethodMetadata().getDeclaringClassName().startsWith("dev.lunchrush.")) {
                Matcher route = ROUTE.matcher(routes.toString());
                while (route.find()) {
                    mappings.add(new Mapping(route.group(1), route.group(2)));
                }
            }
        });
        context.getBeansOfType(RequestMappingHandlerMapping.class).values().forEach(handlers ->
                handlers.getHandlerMethods().forEach((info, method) -> {
                    if (!method.getBeanType().getName().startsWith("dev.lunchrush.")) {
                        return;
                    }
                    info.getPatternsCondition().getPatterns().forEach(pattern ->
                            info.getMethodsCondition().getMethods().forEach(requestMethod ->
                                    mappings.add(new Mapping(requestMethod.name(), pattern.getPatternString()))));
                }));
        return mappings;
    }

    @Test
    void everyMappedPathIsDocumentedAndEveryDocumentedOneMapped() {
        JsonNode document = ApiContract.document(base());
        assertThat(document.path("openapi").asString()).startsWith("3.1");
        assertThat(mapped()).contains(new Mapping("POST", "/orders"));
        assertThat(ApiContract.compare(document, mapped())).isEmpty();
    }

    @Test
    void everyDocumentedOperationAnswersAsDocumented() {
        assertThat(ApiContract.answers(base(), ApiContract.document(base()), OrderServiceTests.ADMIN_PASSWORD)).isEmpty();
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
}
