package dev.lunchrush.controlroom.rushes;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import dev.lunchrush.controlroom.StackProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.verifyNoInteractions;

/**
 * {@code POST /api/rushes} alone, with the control room's security and problem documents: every numeric and duration
 * option beyond its bounds (those of {@code ./demo rush}) is a 400 naming the field, and no rush is started.
 */
@WebMvcTest(controllers = RushController.class, properties = "lunchrush.security.admin-password=slice-secret",
        includeFilters = @ComponentScan.Filter(type = FilterType.REGEX, pattern = "dev\\.lunchrush\\.controlroom\\.ControlRoomSecurity"))
// where the stack answers: the application's Endpoints are made of it
@EnableConfigurationProperties(StackProperties.class)
class RushControllerTests {

    private static final String ADMIN = "Basic " + Base64.getEncoder()
            .encodeToString("admin:slice-secret".getBytes(StandardCharsets.UTF_8));

    @Autowired
    MockMvcTester mvc;

    @MockitoBean
    Rushes rushes;

    private MvcTestResult post(String body) {
        return mvc.post().uri("/api/rushes").header("Authorization", ADMIN).contentType(MediaType.APPLICATION_JSON)
                .content(body).exchange();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"speed": 101}                                                         | speed
            {"speed": 0.01}                                                        | speed
            {"rate": 20001, "duration": "10s"}                                     | rate
            {"rate": 1e400, "duration": "10s"}                                     | rate
            {"rate": 0.01, "duration": "10s"}                                      | rate
            {"rate": 10, "duration": "3000000h"}                                   | duration
            {"rate": 10, "duration": 1e12}                                         | duration
            {"rate": 10, "duration": "500ms"}                                      | duration
            {"rate": 10, "duration": "10s", "thenRate": 1e9, "thenDuration": "1s"} | thenRate
            {"rate": 10, "duration": "10s", "thenRate": 5, "thenDuration": "25h"}  | thenDuration
            {"rate": 10, "duration": "10s", "count": 100000001}                    | count
            {"rate": 10, "duration": "10s", "count": 99999999999999999999}         | count
            {"rate": 10, "duration": "10s", "dashboardCapacity": 2000000}          | dashboardCapacity
            {"rate": 10, "duration": "10s", "dashboardCapacity": 0}                | dashboardCapacity
            {"rate": 10, "duration": "10s", "budgetMb": 0.5}                       | budgetMb
            {"rate": 10, "duration": "10s", "budgetMb": 1e7}                       | budgetMb
            {"rate": 10, "duration": "10s", "maxInFlight": 0}                      | maxInFlight
            {"rate": 10, "duration": "10s", "maxInFlight": 5000000000}             | maxInFlight
            {"rate": 10, "duration": "10s", "requestTimeout": "50ms"}              | requestTimeout
            {"rate": 10, "duration": "10s", "requestTimeout": "1h"}                | requestTimeout
            {"rate": 15000, "duration": "10s", "speed": 2}                         | speed
            {"profile": "lunch", "speed": 60}                                      | speed
            {"rate": 10, "duration": "20h", "thenRate": 10, "thenDuration": "5h"}  | thenDuration
            {"rate": 10, "duration": "20h", "speed": 0.5}                          | speed
            """)
    void anOptionBeyondItsBoundsIsA400NamingItAndNothingStarts(String body, String field) {
        MvcTestResult result = post(body);
        assertThat(result).hasStatus(400).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo(field);
        assertThat(result).bodyJson().extractingPath("$.detail").asString().startsWith(field);
        verifyNoInteractions(rushes);
    }

    @Test
    void everyOptionBeyondItsOwnBoundsIsNamedAtOnce() {
        MvcTestResult result = post("""
                {"speed": 0, "rate": 20001, "duration": "soon", "maxInFlight": 0, "profile": "brunch"}""");
        assertThat(result).hasStatus(400).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(result).bodyJson().isLenientlyEqualTo("""
                {"type": "https://lunchrush.dev/problems/invalid-input", "errors": [
                  {"field": "duration", "message": "must be a duration like 30s, 2m, 1m30s or 500ms, or seconds"},
                  {"field": "maxInFlight", "message": "must be at least 1"},
                  {"field": "profile", "message": "must be one of lunch, constant, step, custom"},
                  {"field": "rate", "message": "must be at most 20000"},
                  {"field": "speed", "message": "must be at least 0.1"}]}""");
        verifyNoInteractions(rushes);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"rates": 100}                        | rates
            {"rate": "fast", "duration": "5s"}    | rate
            {"rate": 10, "duration": "0s"}        | duration
            [1, 2]                                | ''
            """)
    void aBodyThatDoesNotBindNamesTheFieldAtFault(String body, String field) {
        MvcTestResult result = post(body);
        assertThat(result).hasStatus(400).hasContentType(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(result).bodyJson().extractingPath("$.errors[0].field").isEqualTo(field);
        verifyNoInteractions(rushes);
    }

    @Test
    void optionsAtTheirBoundsStartARush() {
        given(rushes.start(any(), any())).willAnswer(call -> new RushRun("r-1", call.getArgument(1), Instant.EPOCH));
        MvcTestResult result = post("""
                {"rate": 20000, "duration": "24h", "count": 100000000, "dashboardCapacity": 1000000, "budgetMb": 100000,
                 "maxInFlight": 100000, "requestTimeout": "5m", "speed": 1}""");
        assertThat(result).hasStatus(202).hasHeader("Location", "/api/rushes/r-1");
        JsonNode view = JsonMapper.builder().build().readTree(result.getResponse().getContentAsByteArray());
        assertThat(view.path("state").asString()).isEqualTo("running");
        assertThat(view.path("options").path("requestTimeout").asString()).isEqualTo("5m");
        assertThat(view.path("options").has("seed")).as("an option not given is not shown").isFalse();
        assertThat(view.path("options").propertyNames()).containsExactlyInAnyOrder("rate", "duration", "count",
                "dashboardCapacity", "budgetMb", "maxInFlight", "requestTimeout", "speed");
    }
}
