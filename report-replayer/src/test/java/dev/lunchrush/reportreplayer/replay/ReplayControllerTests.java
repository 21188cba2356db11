package dev.lunchrush.reportreplayer.replay;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MockMvcTester.MockMvcRequestBuilder;

import dev.lunchrush.support.server.ServerLimits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;

/**
 * {@code POST /admin/replays}' body, without Kafka: the constraints of {@link ReplayRequest}, every field that breaks
 * one named in the 400's {@code errors} before the replays are asked anything, and a valid body still started.
 */
@WebMvcTest(controllers = ReplayController.class, properties = {
    "lunchrush.security.admin-password=slice-admin-secret", "lunchrush.security.viewer-password=slice-viewer-secret"})
class ReplayControllerTests {

    @Autowired
    private MockMvcTester mvc;

    @MockitoBean
    private ReplayService replays;

    @MockitoBean
    private ServerLimits limits;

    @Test
    void everyFieldThatBreaksAConstraintIsNamed() {
        assertThat(post("{\"date\": \"\", \"zone\": \"" + "x".repeat(65) + "\"}")).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().isLenientlyEqualTo("""
                        {"type": "https://lunchrush.dev/problems/invalid-input", "status": 400,
                         "errors": [{"field": "date", "message": "is required and must not be blank"},
                                    {"field": "zone", "message": "must be at most 64 characters"}]}""");
        assertThat(post("{\"date\": \"last thursday\"}")).hasStatus(HttpStatus.BAD_REQUEST)
                .bodyJson().isLenientlyEqualTo("""
                        {"errors": [{"field": "date", "message": "must be a date as yyyy-MM-dd, e.g. 2026-11-26"}]}""");
        assertThat(post("{}")).hasStatus(HttpStatus.BAD_REQUEST)
                .bodyJson().isLenientlyEqualTo("""
                        {"errors": [{"field": "date", "message": "is required and must not be blank"}]}""");
        verifyNoInteractions(replays);
    }

    @Test
    void aValidBodyStartsTheReplay() {
        given(replays.start(any())).willReturn(new ReplayStatus("r-1", "2026-11-26", "UTC", "running", 0, 0, 0, null, 0,
                0, 0, Instant.EPOCH, null, 0, null, null));
        assertThat(post("{\"date\": \"2026-11-26\", \"zone\": \"Europe/Paris\"}")).hasStatus(HttpStatus.ACCEPTED)
                .hasHeader("Location", "/api/replays/r-1");
    }

    /** {@code POST /admin/replays} as the admin. */
    private MockMvcRequestBuilder post(String body) {
        return mvc.post().uri("/admin/replays").contentType(MediaType.APPLICATION_JSON).content(body)
                .header("Authorization", "Basic " + Base64.getEncoder()
                        .encodeToString("admin:slice-admin-secret".getBytes(StandardCharsets.UTF_8)));
    }
}
