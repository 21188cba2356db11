package dev.lunchrush.reportreplayer.groups;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MockMvcTester.MockMvcRequestBuilder;

import dev.lunchrush.reportreplayer.log.OrderLog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.verifyNoInteractions;

/**
 * The group reset's web edge, without Kafka: the admin's chain on {@code /admin/**} and the 400s that name the
 * field, each refused before the log is asked anything. The reset itself, against a real broker, is
 * {@link GroupResetTests}.
 */
@WebMvcTest(controllers = GroupResetController.class, properties = {
    "lunchrush.security.admin-password=slice-admin-secret", "lunchrush.security.viewer-password=slice-viewer-secret"})
@Import(GroupReset.class)
class GroupResetControllerTests {

    private static final String GROUP = "kitchen-screen";
    private static final String VALID = "{\"toDatetime\":\"2026-11-26T00:00:00Z\"}";

    @Autowired
    private MockMvcTester mvc;

    @MockitoBean
    private OrderLog orderLog;

    @Test
    void badInputIsRefusedWithTheFieldNamed() {
        assertInvalid(GROUP, "{\"toDatetime\":\"last thursday\"}", "toDatetime");
        assertInvalid(GROUP, "{\"toDatetime\":\"2026-11-26T00:00:00\"}", "toDatetime");
        assertInvalid(GROUP, "{\"dryRun\":true}", "toDatetime");
        assertInvalid(GROUP, "{\"toDatetime\":\"" + "2".repeat(65) + "\"}", "toDatetime");
        assertInvalid("bad group!", VALID, "group");
        verifyNoInteractions(orderLog);
    }

    @Test
    void aBadGroupAndABadBodyAreNamedTogether() {
        assertThat(post("bad group!", "{}", "admin", "slice-admin-secret")).hasStatus(HttpStatus.BAD_REQUEST)
                .bodyJson().isLenientlyEqualTo("""
                        {"type": "https://lunchrush.dev/problems/invalid-input", "errors": [
                          {"field": "group", "message": "must be a consumer group id: 1 to 249 letters, digits, '.', '_', '-'"},
                          {"field": "toDatetime", "message": "is required and must not be blank"}]}""");
        verifyNoInteractions(orderLog);
    }

    @Test
    void aMissingDatetimeIsNamedInErrorsAsRequired() {
        assertThat(post(GROUP, "{\"toDatetime\": \" \", \"dryRun\": true}", "admin", "slice-admin-secret"))
                .hasStatus(HttpStatus.BAD_REQUEST).hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().isLenientlyEqualTo("""
                        {"type": "https://lunchrush.dev/problems/invalid-input",
                         "errors": [{"field": "toDatetime", "message": "is required and must not be blank"}]}""");
        verifyNoInteractions(orderLog);
    }

    /** The firewall refuses a {@code ;} in the path before the admin's chain: a problem document all the same. */
    @Test
    void aPathTheFirewallRefusesIsARejectedRequestProblem() {
        assertThat(mvc.post().uri("/admin/groups/{group};x=1/reset", GROUP).contentType(MediaType.APPLICATION_JSON)
                .content(VALID))
                .hasStatus(HttpStatus.BAD_REQUEST).hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.type").isEqualTo("https://lunchrush.dev/problems/rejected-request");
        verifyNoInteractions(orderLog);
    }

    @Test
    void onlyTheAdminResetsAGroup() {
        assertThat(post(GROUP, VALID, null, null)).hasStatus(HttpStatus.UNAUTHORIZED);
        assertThat(post(GROUP, VALID, "viewer", "slice-viewer-secret")).hasStatus(HttpStatus.FORBIDDEN);
        assertThat(post(GROUP, VALID, "admin", "wrong")).hasStatus(HttpStatus.UNAUTHORIZED);
        verifyNoInteractions(orderLog);
    }

    private void assertInvalid(String group, String body, String field) {
        assertThat(post(group, body, "admin", "slice-admin-secret")).hasStatus(HttpStatus.BAD_REQUEST)
                .hasContentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .bodyJson().extractingPath("$.errors[*].field").asArray().containsExactly(field);
    }

    /** {@code POST /admin/groups/{group}/reset}, as {@code user} (HTTP Basic) or anonymous when null. */
    private MockMvcRequestBuilder post(String group, String body, String user, String password) {
        MockMvcRequestBuilder request = mvc.post().uri("/admin/groups/{group}/reset", group).contentType(MediaType.APPLICATION_JSON).content(body);
        if (user != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return request;
    }
}
