package dev.lunchrush.orderservice.intake;

import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.support.problems.FieldProblem;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/** {@code GET /orders/{id}}; {@code POST /orders} is {@link OrderRoutes}'s. */
@RestController
@Tag(name = "orders", description = "The intake")
class OrderController {

    private final RecentOrders recent;
    private final OrderServiceProperties properties;

    OrderController(RecentOrders recent, OrderServiceProperties properties) {
        this.recent = recent;
        this.properties = properties;
    }

    @Operation(summary = "A recent order of this run, as it was written (the last lunchrush.recent-orders)",
            responses = {
                @ApiResponse(responseCode = "200", description = "The order event",
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = OrderEvent.class))),
                @ApiResponse(responseCode = "404", description = "Unknown, or no longer among the recent ones. Type " + ProblemType.BASE + "not-found",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping(path = "/orders/{orderId}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> order(@Parameter(example = "0198a0c4-6d1e-7c3b-9f2a-3e5d7b1c9a40") @PathVariable String orderId) {
        return recent.find(orderId)
                .map(event -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(event))
                .orElseThrow(() -> new ProblemException(ProblemType.NOT_FOUND, "Order not found",
                        "no recent order " + orderId + " (only the last " + properties.recentOrders()
                                + " orders of this run are kept)",
                        List.of(new FieldProblem("orderId", "unknown or no longer recent")), java.util.Map.of()));
    }
}
