package dev.lunchrush.support;

import jakarta.validation.constraints.NotBlank;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Credentials for the admin endpoints ({@code /admin/**}: act switch, import, replay, group reset).
 * There is no default password: a service without {@code LUNCHRUSH_SECURITY_ADMIN_PASSWORD} does not
 * start. The viewer may read but not change anything, so that "wrong role" has a meaning.
 *
 * @param adminPassword the password of the user {@code admin} (HTTP Basic on {@code /admin/**}); required
 * @param viewerPassword the password of the read-only user {@code viewer}; empty, there is no such user
 */
@Validated
@ConfigurationProperties("lunchrush.security")
public record SecurityProperties(
        @NotBlank(message = "set LUNCHRUSH_SECURITY_ADMIN_PASSWORD: the admin endpoints have no default password")
        String adminPassword,
        String viewerPassword) {
}
