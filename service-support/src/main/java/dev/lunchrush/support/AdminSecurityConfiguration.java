package dev.lunchrush.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.servlet.HandlerExceptionResolver;

import dev.lunchrush.support.problems.ReactiveProblems;
import dev.lunchrush.support.problems.ServletProblems;

/**
 * HTTP Basic for {@code /admin/**} (role ADMIN); everything else is open, as a demo's pages and
 * intake should be. Stateless, no CSRF: the admin endpoints are an API for the {@code demo} command.
 * Each service imports it ({@code @Import(AdminSecurityConfiguration.class)}); the servlet services
 * get a {@link SecurityFilterChain}, the reactive order service a {@link SecurityWebFilterChain}, the
 * same rules in both. A refusal is a problem document like every other error: 401 (type {@code unauthorized}) with a
 * Basic challenge, 403 ({@code forbidden}) for the viewer, and on the servlet services 400 ({@code rejected-request})
 * for what Spring Security's firewall refuses.
 *
 * <p>The chain applies to {@code /admin/**} only: an open request (an order, a page, a scrape) does not
 * pass through a dozen security filters that would each let it go (under a rush, that was a tenth of
 * the order service's CPU per order).
 *
 * <p>The passwords are kept as BCrypt hashes of the lowest cost ({@link #PASSWORDS}): the hash never leaves the
 * process, which holds the password itself in its settings, so BCrypt's slowness would protect nothing here, while
 * every admin request would pay it (a backfill's batch, an act switch, and a stranger's wrong guess alike). The
 * passwords {@code ./demo up} and {@code make-secrets.sh} generate are long random strings, which no one guesses
 * over HTTP at any cost per check.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SecurityProperties.class)
public class AdminSecurityConfiguration {

    public static final String ADMIN_USER = "admin";
    public static final String VIEWER_USER = "viewer";

    /**
     * BCrypt at cost 4: 2^4 rounds a check against the default cost's 2^10, still compared in constant time. The hashes
     * carry their {@code {bcrypt}} prefix, so that Spring Security's default encoder reads them too.
     */
    public static final PasswordEncoder PASSWORDS = new DelegatingPasswordEncoder("bcrypt",
            Map.of("bcrypt", new BCryptPasswordEncoder(4)));

    /**
     * The encoder the authentication managers check with: the same cost as the stored hashes, so that none is
     * "upgraded" to the default cost after its first check.
     */
    @Bean
    PasswordEncoder lunchRushPasswords() {
        return PASSWORDS;
    }

    /** The admin, and the read-only viewer where a viewer password is set. */
    public static List<UserDetails> users(SecurityProperties properties) {
        PasswordEncoder encoder = PASSWORDS;
        List<UserDetails> users = new ArrayList<>();
        users.add(User.withUsername(ADMIN_USER).password(encoder.encode(properties.adminPassword()))
                .roles("ADMIN", "VIEWER").build());
        if (properties.viewerPassword() != null && !properties.viewerPassword().isBlank()) {
            users.add(User.withUsername(VIEWER_USER).password(encoder.encode(properties.viewerPassword()))
                    .roles("VIEWER").build());
        }
        return users;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class ServletSecurity {

        @Bean
        SecurityFilterChain lunchRushSecurity(HttpSecurity http,
                @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) throws Exception {
            return http
                    .securityMatcher("/admin/**")
                    .authorizeHttpRequests(requests -> requests.anyRequest().hasRole("ADMIN"))
                    .httpBasic(basic -> basic.authenticationEntryPoint(ServletProblems.unauthorized(problems)))
                    .exceptionHandling(handling -> handling
                            .authenticationEntryPoint(ServletProblems.unauthorized(problems))
                            .accessDeniedHandler(ServletProblems.forbidden(problems)))
                    .csrf(csrf -> csrf.disable())
                    .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                    .build();
        }

        /** The firewall's refusals, on every path, as problem documents ({@link ServletProblems#rejected}). */
        @Bean
        RequestRejectedHandler lunchRushRejectedRequests(
                @Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
            return ServletProblems.rejected(problems);
        }

        @Bean
        InMemoryUserDetailsManager lunchRushUsers(SecurityProperties properties) {
            return new InMemoryUserDetailsManager(users(properties));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @EnableWebFluxSecurity
    static class ReactiveSecurity {

        @Bean
        SecurityWebFilterChain lunchRushSecurity(ServerHttpSecurity http, ServerCodecConfigurer codecs) {
            return http
                    .securityMatcher(ServerWebExchangeMatchers.pathMatchers("/admin/**"))
                    .authorizeExchange(exchanges -> exchanges.anyExchange().hasRole("ADMIN"))
                    .httpBasic(basic -> basic.authenticationEntryPoint(ReactiveProblems.unauthorized(codecs)))
                    .exceptionHandling(handling -> handling
                            .authenticationEntryPoint(ReactiveProblems.unauthorized(codecs))
                            .accessDeniedHandler(ReactiveProblems.forbidden(codecs)))
                    .csrf(csrf -> csrf.disable())
                    .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                    .build();
        }

        @Bean
        MapReactiveUserDetailsService lunchRushUsers(SecurityProperties properties) {
            return new MapReactiveUserDetailsService(users(properties));
        }
    }
}
