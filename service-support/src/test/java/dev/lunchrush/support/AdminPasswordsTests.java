package dev.lunchrush.support;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin's and the viewer's passwords are kept at BCrypt's lowest cost, and the authentication managers check with
 * the same encoder, so that a check stays cheap and no hash is re-encoded at the default cost after its first check.
 */
class AdminPasswordsTests {

    @Test
    void thePasswordsAreKeptAtTheLowestCostAndCheckedAtIt() {
        List<UserDetails> users = AdminSecurityConfiguration.users(new SecurityProperties("admin-secret", "viewer-secret"));

        assertThat(users).extracting(UserDetails::getUsername).containsExactly("admin", "viewer");
        assertThat(users).allSatisfy(user -> {
            assertThat(user.getPassword()).startsWith("{bcrypt}$2a$04$");
            assertThat(AdminSecurityConfiguration.PASSWORDS.upgradeEncoding(user.getPassword())).isFalse();
        });
        assertThat(AdminSecurityConfiguration.PASSWORDS.matches("admin-secret", users.get(0).getPassword())).isTrue();
        assertThat(AdminSecurityConfiguration.PASSWORDS.matches("admin-secreT", users.get(0).getPassword())).isFalse();
        assertThat(new AdminSecurityConfiguration().lunchRushPasswords()).isSameAs(AdminSecurityConfiguration.PASSWORDS);
        // a context without the bean (Spring Security's default encoder) reads the same hashes
        assertThat(PasswordEncoderFactories.createDelegatingPasswordEncoder().matches("admin-secret",
                users.get(0).getPassword())).isTrue();
    }
}
