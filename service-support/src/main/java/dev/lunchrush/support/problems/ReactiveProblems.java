package dev.lunchrush.support.problems;

import java.net.URI;
import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authorization.ServerAccessDeniedHandler;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.springframework.web.server.ServerWebExchange;

/**
 * Problem documents written where no handler runs (Spring Security's 401 and 403 on a reactive service, its
 * firewall's refusals): with the server's own codecs, as a handler's answer would be.
 */
public final class ReactiveProblems {

    private ReactiveProblems() {
    }

    /** Spring Security's 401 as a problem document with a Basic challenge. */
    public static ServerAuthenticationEntryPoint unauthorized(ServerCodecConfigurer codecs) {
        return (exchange, ex) -> {
            HttpHeaders headers = new HttpHeaders();
            headers.set(HttpHeaders.WWW_AUTHENTICATE, SecurityProblems.CHALLENGE);
            return write(exchange, SecurityProblems.unauthorized(ex), headers, codecs);
        };
    }

    /** Spring Security's 403 (credentials of a user who may not do this) as a problem document. */
    public static ServerAccessDeniedHandler forbidden(ServerCodecConfigurer codecs) {
        return (exchange, ex) -> write(exchange, SecurityProblems.forbidden(), new HttpHeaders(), codecs);
    }

    /**
     * {@code problem} as the answer to {@code exchange}, with {@code headers}, its {@code instance} the request's
     * path; nothing when the answer is under way already.
     */
    public static Mono<Void> write(ServerWebExchange exchange, ProblemDetail problem, HttpHeaders headers,
            ServerCodecConfigurer codecs) {
        if (exchange.getResponse().isCommitted()) {
            return Mono.empty();
        }
        if (problem.getInstance() == null) {
            problem.setInstance(URI.create(exchange.getRequest().getPath().value()));
        }
        ServerResponse.Context context = new ServerResponse.Context() {
            @Override
            public List<HttpMessageWriter<?>> messageWriters() {
                return codecs.getWriters();
            }

            @Override
            public List<ViewResolver> viewResolvers() {
                return List.of();
            }
        };
        return ServerResponse.status(problem.getStatus()).headers(all -> all.putAll(headers))
                .contentType(MediaType.APPLICATION_PROBLEM_JSON).bodyValue(problem)
                .flatMap(response -> response.writeTo(exchange, context));
    }
}
