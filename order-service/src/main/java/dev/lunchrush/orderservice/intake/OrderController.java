package dev.lunchrush.orderservice.intake;

import java.net.URI;
import java.util.List;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
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

import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.problems.FieldProblem;
import dev.lunchrush.orderservice.problems.ProblemException;
import dev.lunchrush.orderservice.web.EventLoops;
import dev.lunchrush.orderservice.web.RequestBodies;
import dev.lunchrush.support.api.ApiDocumentation;
import dev.lunchrush.support.api.Problem;

/**
 * {@code POST /orders} and {@code GET /orders/{id}}. Most orders never get here: {@link OrderIntakeHandler}
 * answers them on the connection itself, and hands this controller only what it does not take (an
 * order pipelined behind another request, one that expects {@code 100 Continue}). Both answer alike
 * ({@link OrderPlacement}).
 */
@RestController
@Tag(name = "orders", description = "The intake")
class OrderController {

    private static final String ORDER_EXAMPLE = """
            {"kitchenId": "k3", "customerId": "c-1042",
             "items": [{"dish": "pad-thai", "quantity": 2}, {"dish": "spring-rolls", "quantity": 1}],
             "deliveryAddress": "12 Mill Lane", "notes": "no peanuts"}""";

    private final OrderPlacement placement;
    private final RecentOrders recent;
    private final OrderServiceProperties properties;

    OrderController(OrderPlacement placement, RecentOrders recent, OrderServiceProperties properties) {
        this.placement = placement;
        this.recent = recent;
        this.properties = properties;
    }

    @Operation(summary = "Place an order",
            description = "201 only once the current act's output holds the order durably (a RabbitMQ publisher confirm, "
                    + "a Kafka ack with acks=all, or a place in the feed). Bad input is refused with the field to blame and "
                    + "nothing is written. Dishes and kitchens: GET /menu.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = OrderRequest.class),
                    examples = @ExampleObject(name = "order", value = ORDER_EXAMPLE))),
            responses = {
                @ApiResponse(responseCode = "201", description = "Accepted and durably written (or the first answer to this Idempotency-Key)",
                        headers = {
                            @Header(name = "Location", description = "/orders/{orderId}", schema = @Schema(type = "string")),
                            @Header(name = "Idempotent-Replayed", description = "true when this is the stored answer of an earlier request with the same Idempotency-Key",
                                    schema = @Schema(type = "string"))},
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = OrderAccepted.class))),
                @ApiResponse(responseCode = "400", description = "Not an order: malformed JSON, an unknown kitchen or dish, a quantity out of range; errors names each field",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "413", description = "Body over lunchrush.max-order-body (64 KB)",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "415", description = "Content-Type is not application/json",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "422", description = "This Idempotency-Key was used for another order",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "429", description = "Act 3, strategy throttle: the feed is full; retry after Retry-After with the same Idempotency-Key",
                        headers = @Header(name = "Retry-After", description = "seconds to wait (lunchrush.feed.retry-after)", schema = @Schema(type = "integer")),
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class))),
                @ApiResponse(responseCode = "503", description = "The act's output did not take the order within lunchrush.output-timeout "
                        + "(a broker down, the feed full under block): never a 201. Title 'Outcome unknown' when the broker may still "
                        + "take it: a retry under the same Idempotency-Key gets the real outcome instead of a second order",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @PostMapping(path = "/orders", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<String>> place(ServerHttpRequest request,
            @Parameter(in = ParameterIn.HEADER, description = "Makes a retry return the first answer instead of placing a second "
                    + "order (kept lunchrush.store.idempotency-retention, across restarts)", example = "c-1042-lunch-1")
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

    @Operation(summary = "A recent order of this run, as it was written (the last lunchrush.recent-orders)",
            responses = {
                @ApiResponse(responseCode = "200", description = "The order event",
                        content = @Content(mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = OrderEvent.class))),
                @ApiResponse(responseCode = "404", description = "Unknown, or no longer among the recent ones",
                        content = @Content(mediaType = ApiDocumentation.PROBLEM_JSON, schema = @Schema(implementation = Problem.class)))})
    @GetMapping(path = "/orders/{orderId}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> order(@Parameter(example = "0198a0c4-6d1e-7c3b-9f2a-3e5d7b1c9a40") @PathVariable String orderId) {
        return recent.find(orderId)
                .map(event -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(event))
                .orElseThrow(() -> new ProblemException(HttpStatus.NOT_FOUND, "Order not found",
                        "no recent order " + orderId + " (only the last " + properties.recentOrders()
                                + " orders of this run are kept)",
                        List.of(new FieldProblem("orderId", "unknown or no longer recent")), java.util.Map.of()));
    }
}
