package dev.lunchrush.orderservice.intake;

import java.net.URI;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.idempotency.IdempotencyStore;
import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * {@code POST /orders} and {@code GET /orders/{id}}. The body is read by hand, with a size limit
 * that also holds for chunked bodies, and validated completely before anything is written.
 */
@RestController
class OrderController {

    private final OrderRequestParser parser;
    private final OrderIntake intake;
    private final RecentOrders recent;
    private final OrderServiceProperties properties;
    private final IdempotencyStore idempotency;
    private final JsonMapper json;

    OrderController(OrderRequestParser parser, OrderIntake intake, RecentOrders recent, OrderServiceProperties properties,
            IdempotencyStore idempotency, JsonMapper json) {
        this.parser = parser;
        this.intake = intake;
        this.recent = recent;
        this.properties = properties;
        this.idempotency = idempotency;
        this.json = json;
    }

    @PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> place(HttpServletRequest request,
            @RequestHeader(name = "Idempotency-Key", required = false) @Nullable String idempotencyKey) {
        byte[] body = RequestBodies.read(request, properties.maxOrderBody());
        OrderRequest order = parser.parseOrder(body);
        if (idempotencyKey == null) {
            // the common case stays away from the database
            return response(accepted(intake.place(order)));
        }
        // the hash is of the parsed order, so that whitespace or key order do not make it "different"
        StoredResponse answer = idempotency.execute(idempotencyKey, json.writeValueAsBytes(order),
                () -> accepted(intake.place(order)));
        return response(answer);
    }

    private StoredResponse accepted(OrderAccepted accepted) {
        return new StoredResponse(201, "/orders/" + accepted.orderId(), json.writeValueAsString(accepted), false);
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
