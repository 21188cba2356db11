package dev.lunchrush.orderservice.problems;

import java.util.Set;

import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedException;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedHandler;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;

/**
 * What Spring Security's firewall refuses before any handler or security chain sees it, as a problem+json document
 * like every other error of this service (it answered a bare 400): {@code 405} for a method it does not take
 * ({@code TRACE}, {@code CONNECT}, anything but the seven below), {@code 400} for the rest (a path or header it finds
 * unsafe). The firewall refuses such a method for every path, before the resource is known, so the {@code 405} has no
 * {@code Allow} of a resource; its detail says so. Nothing runs here for a request the firewall lets through.
 */
@Component
class RejectedRequests implements ServerExchangeRejectedHandler {

    /** The firewall's default: the methods it lets through. */
    private static final Set<HttpMethod> TAKEN = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST, HttpMethod.PUT,
            HttpMethod.PATCH, HttpMethod.DELETE, HttpMethod.OPTIONS);

    private final ProblemDocuments problems;

    RejectedRequests(ProblemDocuments problems) {
        this.problems = problems;
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, ServerExchangeRejectedException ex) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.empty();
        }
        HttpMethod method = exchange.getRequest().getMethod();
        ProblemException problem = TAKEN.contains(method)
                ? new ProblemException(ProblemType.REJECTED_REQUEST, "the request was refused: " + ex.getMessage())
                : new ProblemException(ProblemType.METHOD_NOT_ALLOWED,
                        "this service takes no " + method.name() + " request, whatever the path");
        response.setStatusCode(problem.status());
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        byte[] body = problems.json(problem, exchange.getRequest().getPath().value());
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
