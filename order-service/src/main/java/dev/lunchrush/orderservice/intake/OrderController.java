package dev.lunchrush.orderservice.intake;

import java.net.URI;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.OrderServiceProperties;
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

    OrderController(OrderRequestParser parser, OrderIntake intake, RecentOrders recent, OrderServiceProperties properties) {
        this.parser = parser;
        this.intake = intake;
        this.recent = recent;
        this.properties = properties;
    }

    @PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<OrderAccepted> place(HttpServletRequest request) {
        byte[] body = RequestBodies.read(request, properties.maxOrderBody());
        OrderRequest order = parser.parseOrder(body);
        OrderAccepted accepted = intake.place(order);
        return ResponseEntity.created(URI.create("/orders/" + accepted.orderId())).body(accepted);
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
