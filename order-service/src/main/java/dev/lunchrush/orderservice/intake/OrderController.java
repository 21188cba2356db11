package dev.lunchrush.orderservice.intake;

import java.net.URI;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;
import dev.lunchrush.orderservice.web.EventLoops;
import dev.lunchrush.orderservice.web.RequestBodies;

/**
 * {@code POST /orders} and {@code GET /orders/{id}}. Most orders never get here: {@link OrderIntakeHandler}
 * answers them on the connection itself, and hands this controller only what it does not take (an
 * order pipelined behind another request, one that expects {@code 100 Continue}). Both answer alike
 * ({@link OrderPlacement}).
 */
@RestController
class OrderController {

    private final OrderPlacement placement;
    private final RecentOrders recent;
    private final OrderServiceProperties properties;

    OrderController(OrderPlacement placement, RecentOrders recent, OrderServiceProperties properties) {
        this.placement = placement;
        this.recent = recent;
        this.properties = properties;
    }

    @PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> place(ServerHttpRequest request,
            @RequestHeader(name = "Idempotency-Key", required = false) @Nullable String idempotencyKey) {
        return RequestBodies.read(request, properties.maxOrderBody())
                .flatMap(body -> Mono.fromFuture(placement.place(body, idempotencyKey, EventLoops.current())))
                .map(OrderController::response);
    }

    private static ResponseEntity<String> response(StoredResponse answer) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(answer.status()).contentType(MediaType.APPLICATION_JSON);
        if (answer.location() != null) {
            response.location(URI.create(answer.location()));
        }
        if (answer.replayed()) {
            response.header("Idempotent-Replayed", "true");
        }
        return response.body(answer.body());
    }

    @GetMapping(path = "/orders/{orderId}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> order(@PathVariable String orderId) {
        return recent.find(orderId)
                .map(event -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(event))
                .orElseThrow(() -> new ProblemException(HttpStatus.NOT_FOUND, "Order not found",
                        "no recent order " + orderId + " (only the last " + properties.recentOrders()
                                + " orders of this run are kept)",
                        List.of(new FieldProblem("orderId", "unknown or no longer recent")), java.util.Map.of()));
    }
}
