package dev.lunchrush.controlroom;

import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/session}: who the credentials are, and whether they may change the lesson (401 without any). */
@RestController
class SessionController {

    @GetMapping("/api/session")
    Session session(Authentication authentication) {
        boolean admin = authentication.getAuthorities().stream()
                .anyMatch(authority -> ("ROLE_" + ControlRoomSecurity.ADMIN_ROLE).equals(authority.getAuthority()));
        return new Session(authentication.getName(), admin);
    }

    record Session(String user, boolean admin) {
    }
}
