package dev.lunchrush.controlroom;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/** {@code GET /api/session}: who the credentials are, and whether they may change the lesson (401 without any). */
@RestController
class SessionController {

    @Operation(summary = "Who the credentials are, and whether they may change the lesson (the page enables its controls by it)", security = @SecurityRequirement(name = ApiDocumentation.ADMIN),
            responses = {
                @ApiResponse(responseCode = "200", description = "The user, and admin true or false"),
                @ApiResponse(responseCode = "401", description = "No credentials, or wrong ones")})
    @GetMapping("/api/session")
    Session session(Authentication authentication) {
        boolean admin = authentication.getAuthorities().stream()
                .anyMatch(authority -> ("ROLE_" + ControlRoomSecurity.ADMIN_ROLE).equals(authority.getAuthority()));
        return new Session(authentication.getName(), admin);
    }

    record Session(String user, boolean admin) {
    }
}
