package dev.lunchrush.controlroom;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import dev.lunchrush.support.SecurityProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /api/session} asks for credentials whatever the method: a {@code HEAD}, which Spring MVC answers with the
 * {@code GET} handler, is no way around the security chain.
 */
@WebMvcTest(controllers = SessionController.class, properties = "lunchrush.security.admin-password=session-secret")
@Import(ControlRoomSecurity.class)
@EnableConfigurationProperties({SecurityProperties.class, StackProperties.class})
class SessionControllerTests {

    @Autowired
    MockMvcTester mvc;

    @Test
    void aHeadWithoutCredentialsIsA401AsAGetIs() {
        assertThat(mvc.get().uri("/api/session")).hasStatus(401);
        assertThat(mvc.head().uri("/api/session")).hasStatus(401);
        assertThat(mvc.head().uri("/api/session").header("Authorization", "Basic YWRtaW46c2Vzc2lvbi1zZWNyZXQ="))
                .hasStatusOk();
    }
}
