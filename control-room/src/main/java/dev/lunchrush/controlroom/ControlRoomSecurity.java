package dev.lunchrush.controlroom;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.web.servlet.HandlerExceptionResolver;

import dev.lunchrush.support.AdminSecurityConfiguration;
import dev.lunchrush.support.SecurityProperties;
import dev.lunchrush.support.problems.ServletProblems;

/**
 * HTTP Basic with the stack's admin password for what changes the lesson ({@code PUT /api/act},
 * {@code POST /api/rushes}, {@code DELETE /api/rushes/{id}}), as {@code /admin/**} in the services; the same users
 * (admin, and the read-only viewer where one is set). Everything else is open: a class watches without a password.
 * {@code /api/session} (every method) says who the credentials are, so that the page enables its controls for the admin
 * alone.
 * The chain matches those requests only; the page, the stream and the scrapes pass no security filter. Its 401 and 403,
 * and the 400 of what Spring Security's firewall refuses on any path, are problem documents, as the services' are
 * ({@link ServletProblems}).
 */
@Configuration(proxyBeanMethods = false)
class ControlRoomSecurity {

    static final String ADMIN_ROLE = "ADMIN";

    @Bean
    SecurityFilterChain controlRoomFilterChain(HttpSecurity http,
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) throws Exception {
        PathPatternRequestMatcher.Builder path = PathPatternRequestMatcher.withDefaults();
        RequestMatcher changes = new OrRequestMatcher(path.matcher(HttpMethod.PUT, "/api/act"),
                path.matcher(HttpMethod.POST, "/api/rushes"), path.matcher(HttpMethod.DELETE, "/api/rushes/**"));
        // any method: a HEAD is answered by the GET handler, which needs the credentials this chain checks
        RequestMatcher session = path.matcher("/api/session");
        return http
                .securityMatcher(new OrRequestMatcher(changes, session))
                .authorizeHttpRequests(requests -> requests
                        .requestMatchers(changes).hasRole(ADMIN_ROLE)
                        .anyRequest().authenticated())
                .httpBasic(basic -> basic.authenticationEntryPoint(ServletProblems.unauthorized(problems)))
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint(ServletProblems.unauthorized(problems))
                        .accessDeniedHandler(ServletProblems.forbidden(problems)))
                .csrf(csrf -> csrf.disable())
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .build();
    }

    /** The firewall's refusals, on every path, as problem documents ({@link ServletProblems#rejected}). */
    @Bean
    RequestRejectedHandler controlRoomRejectedRequests(
            @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
        return ServletProblems.rejected(problems);
    }

    /** The services' encoder, at the stored hashes' cost: no hash is re-encoded at the default cost after a sign-in. */
    @Bean
    PasswordEncoder controlRoomPasswords() {
        return AdminSecurityConfiguration.PASSWORDS;
    }

    @Bean
    InMemoryUserDetailsManager controlRoomUsers(SecurityProperties properties) {
        return new InMemoryUserDetailsManager(AdminSecurityConfiguration.users(properties));
    }
}
