package dev.lunchrush.orderservice.feed;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Set;

import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher.MatchResult;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.server.ServerWebExchange;

import dev.lunchrush.orderservice.problems.ProblemDocuments;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.support.AdminSecurityConfiguration;
import dev.lunchrush.support.SecurityProperties;

/**
 * {@code GET /feed} takes the analytics job's credential: HTTP Basic as {@code admin} with the stack's admin
 * password, which the job holds as every service does ({@code lunchrush.security.admin-password}). A pull takes
 * events away for good, so neither a web page ({@code <img src=".../feed?max=10000">}) nor another machine may.
 * Without it: {@code 401} problem+json with a Basic challenge.
 *
 * <p>Every other method is answered {@code 405} problem+json ({@code Allow: GET}) before the credential is looked at,
 * and takes nothing: Spring answers {@code HEAD} by running the {@code GET} handler and dropping its body, which for
 * the feed would take the events and throw them away. The chain sees the path whatever the method, the intake's
 * {@code POST} aside: that one never reaches a handler of {@code /feed} (the framework answers it {@code 405}), and
 * each order would otherwise pay for the path's match.
 *
 * <p>The password is compared here in constant time against its SHA-256, not through the admin's BCrypt: the job
 * pulls several times a second, and a BCrypt check each time would cost a share of a core the lesson's figures
 * (CPU per order) would pay.
 */
@Configuration(proxyBeanMethods = false)
class FeedSecurity {

    static final String REALM = "Basic realm=\"Realm\"";

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityWebFilterChain feedPullSecurity(ServerHttpSecurity http, SecurityProperties credentials,
            ProblemDocuments problems) {
        ReactiveAuthenticationManager jobOnly = jobOnly(credentials.adminPassword());
        return http
                .securityMatcher(feedRequests())
                .addFilterAt((exchange, chain) -> HttpMethod.GET.equals(exchange.getRequest().getMethod())
                        ? chain.filter(exchange) : methodNotAllowed(exchange, problems), SecurityWebFiltersOrder.FIRST)
                .authorizeExchange(exchanges -> exchanges.anyExchange().authenticated())
                .httpBasic(basic -> basic.authenticationManager(jobOnly)
                        .authenticationEntryPoint((exchange, ex) -> unauthorized(exchange, problems)))
                .exceptionHandling(handling -> handling
                        .authenticationEntryPoint((exchange, ex) -> unauthorized(exchange, problems)))
                .csrf(csrf -> csrf.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                .build();
    }

    /** Requests for {@code /feed} (as the handler mapping matches it), of any method but {@code POST}. */
    static ServerWebExchangeMatcher feedRequests() {
        ServerWebExchangeMatcher feedPath = ServerWebExchangeMatchers.pathMatchers("/feed");
        return exchange -> HttpMethod.POST.equals(exchange.getRequest().getMethod()) ? MatchResult.notMatch()
                : feedPath.matches(exchange);
    }

    /** The admin's name and password, or nobody. */
    static ReactiveAuthenticationManager jobOnly(String password) {
        byte[] expected = sha256(password);
        return authentication -> {
            String user = authentication.getName();
            Object given = authentication.getCredentials();
            if (AdminSecurityConfiguration.ADMIN_USER.equals(user) && given instanceof String text
                    && MessageDigest.isEqual(sha256(text), expected)) {
                return Mono.just(UsernamePasswordAuthenticationToken.authenticated(user, null,
                        List.of(new SimpleGrantedAuthority("ROLE_ADMIN"))));
            }
            return Mono.error(new BadCredentialsException("not the analytics job's credential"));
        };
    }

    private static Mono<Void> unauthorized(ServerWebExchange exchange, ProblemDocuments problems) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.UNAUTHORIZED);
        response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, REALM);
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        byte[] body = problems.json(new ProblemException(ProblemType.UNAUTHORIZED,
                "GET /feed takes the analytics job's credential: HTTP Basic as admin with the stack's admin password"),
                exchange.getRequest().getPath().value());
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }

    private static Mono<Void> methodNotAllowed(ServerWebExchange exchange, ProblemDocuments problems) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.METHOD_NOT_ALLOWED);
        response.getHeaders().setAllow(Set.of(HttpMethod.GET));
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        byte[] body = problems.json(new ProblemException(ProblemType.METHOD_NOT_ALLOWED,
                "/feed answers GET only (the analytics job's pull, with its credential); "
                        + exchange.getRequest().getMethod().name() + " takes nothing"),
                exchange.getRequest().getPath().value());
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
