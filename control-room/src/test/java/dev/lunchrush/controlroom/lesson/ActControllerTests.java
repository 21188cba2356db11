package dev.lunchrush.controlroom.lesson;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import dev.lunchrush.events.ActRequest;
import dev.lunchrush.controlroom.StackProperties;
import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code PUT /api/act} alone, with the control room's security and problem documents, and no order service behind
 * it: a body that breaks {@link ActRequest}'s constraints is a 400 naming every field at fault, before the order
 * service is asked; a valid one is asked of it (none answers here: 502).
 */
@WebMvcTest(controllers = ActController.class, properties = {"lunchrush.security.admin-password=slice-secret",
    "lunchrush.order-service-url=http://127.0.0.1:9"},
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = "dev\\.lunchrush\\.controlroom\\.ControlRoomSecurity"))
@EnableConfigurationProperties(StackProperties.class)
class ActControllerTests {

    private static final String ADMIN = "Basic " + Base64.getEncoder()
            .encodeToString("admin:slice-secret".getBytes(StandardCharsets.UTF_8));

    @Autowired
    MockMvcTester mvc;

    private MvcTestResult put(String body) {
        return mvc.put().uri("/api/act").header("Authorization", ADMIN).contentType(MediaType.APPLICATION_JSON)
                .content(body).exchange();
    }

    @Test
    void everyFieldThatBreaksAConstraintIsNamed() {
        MvcTestResult result = put("{\"act\": \"brunch\", \"strategy\": \"lifo\", \"capacity\": 0}");
        assertThat(result).hasStatus(400).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(result).bodyJson().isLenientlyEqualTo("""
                {"type": "https://lunchrush.dev/problems/invalid-input", "errors": [
                  {"field": "act", "message": "must be one of shared-queue, queue-per-reader, memory-feed, log"},
                  {"field": "capacity", "message": "must be at least 1"},
                  {"field": "strategy", "message": "must be one of unbounded, block, drop, throttle"}]}""");
        assertThat(put("{}")).bodyJson().isLenientlyEqualTo("""
                {"errors": [{"field": "act", "message": "is required and must not be blank"}]}""");
    }

    @Test
    void theFeedsOptionsWithAnotherActAreEachNamed() {
        assertThat(put("{\"act\": \"log\", \"strategy\": \"drop\", \"capacity\": 10}")).hasStatus(400)
                .bodyJson().isLenientlyEqualTo("""
                        {"errors": [{"field": "strategy", "message": "for memory-feed only, not log"},
                                    {"field": "capacity", "message": "for memory-feed only, not log"}]}""");
    }

    @Test
    void aFieldOfTheWrongKindOrUnknownIsNamed() {
        assertThat(put("{\"act\": \"memory-feed\", \"capacity\": 2.5}")).hasStatus(400)
                .bodyJson().extractingPath("$.errors[0].field").isEqualTo("capacity");
        assertThat(put("{\"act\": \"log\", \"acts\": 1}")).hasStatus(400)
                .bodyJson().extractingPath("$.errors[0].field").isEqualTo("acts");
    }

    @Test
    void aValidBodyIsAskedOfTheOrderService() {
        assertThat(put("{\"act\": \"memory-feed\", \"strategy\": \"throttle\", \"capacity\": 20000}")).hasStatus(502)
                .bodyJson().extractingPath("$.type").isEqualTo("https://lunchrush.dev/problems/stack-failed");
    }

    @Test
    void thePatternsNameEveryActAndStrategy() {
        assertThat(ActRequest.ACTS.split("\\|")).containsExactlyInAnyOrder(Arrays.stream(Act.values()).map(Act::id).toArray(String[]::new));
        assertThat(ActRequest.STRATEGIES.split("\\|"))
                .containsExactlyInAnyOrder(Arrays.stream(FeedStrategy.values()).map(FeedStrategy::id).toArray(String[]::new));
    }
}
