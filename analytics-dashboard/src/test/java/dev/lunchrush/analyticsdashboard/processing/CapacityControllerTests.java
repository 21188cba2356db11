package dev.lunchrush.analyticsdashboard.processing;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MockMvcTester.MockMvcRequestBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;

/**
 * {@code PUT /admin/capacity}'s body against its constraints: a 400 {@code invalid-input} naming the field, the
 * capacity left alone; a valid body still changes it.
 */
@WebMvcTest(controllers = CapacityController.class, properties = {
    "lunchrush.security.admin-password=slice-admin-secret", "lunchrush.security.viewer-password=slice-viewer-secret"})
class CapacityControllerTests {

    @Autowired
    private MockMvcTester mvc;

    @MockitoBean
    private Capacity capacity;

    @Test
    void aCapacityOutOfBoundsOrMissingIsNamed() {
        assertInvalid("{}", "is required");
        assertInvalid("{\"eventsPerSecond\": 0}", "must be at least 1");
        assertInvalid("{\"eventsPerSecond\": 1000001}", "must be at most 1000000");
        verifyNoInteractions(capacity);
    }

    @Test
    void aValidCapacityIsSet() {
        given(capacity.perSecond()).willReturn(250);
        assertThat(put("{\"eventsPerSecond\": 250}")).hasStatusOk().bodyJson()
                .isLenientlyEqualTo("{\"eventsPerSecond\": 250}");
        verify(capacity).change(250);
    }

    private void assertInvalid(String body, String message) {
        assertThat(put(body)).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON).bodyJson().isLenientlyEqualTo("""
                        {"type": "https://lunchrush.dev/problems/invalid-input", "status": 400,
                         "errors": [{"field": "eventsPerSecond", "message": "%s"}]}""".formatted(message));
    }

    /** {@code PUT /admin/capacity} as the admin. */
    private MockMvcRequestBuilder put(String body) {
        return mvc.put().uri("/admin/capacity").contentType(MediaType.APPLICATION_JSON).content(body)
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString("admin:slice-admin-secret".getBytes(StandardCharsets.UTF_8)));
    }
}
