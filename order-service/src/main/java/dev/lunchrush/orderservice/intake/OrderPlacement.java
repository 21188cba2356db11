package dev.lunchrush.orderservice.intake;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.idempotency.IdempotencyStore;
import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * What {@code POST /orders} answers ({@link OrderEndpoint}): the body parsed and checked, the Idempotency-Key honoured, the order written
 * by {@link OrderIntake}.
 */
@Component
class OrderPlacement {

    private final OrderRequestParser parser;
    private final OrderIntake intake;
    private final IdempotencyStore idempotency;
    private final JsonMapper json;

    OrderPlacement(OrderRequestParser parser, OrderIntake intake, IdempotencyStore idempotency, JsonMapper json) {
        this.parser = parser;
        this.intake = intake;
        this.idempotency = idempotency;
        this.json = json;
    }

    /**
     * The answer to an order's body: 201 once the act's output took it, or the stored answer of its
     * Idempotency-Key. What follows the output's answer runs on {@code continuation} (the request's event
     * loop). A bad order throws a 400 problem at once; a refused one fails the future with a problem.
     */
    CompletableFuture<StoredResponse> place(byte[] body, @Nullable String idempotencyKey, Executor continuation) {
        OrderRequest order = parser.parseOrder(body);
        if (idempotencyKey == null) {
            // the common case stays away from the store
            return intake.place(order).thenApplyAsync(this::accepted, continuation);
        }
        // the hash is of the parsed order, so that whitespace or key order do not make it "different"; an order
        // whose outcome is unknown at its deadline carries the answer it gets if the output takes it after all
        return idempotency.execute(idempotencyKey, json.writeValueAsBytes(order),
                () -> intake.place(order).exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        ProblemException.unwrap(failure) instanceof OutcomeUnknownException unknown
                                ? unknown.<OrderAccepted>then(this::accepted) : failure))
                        .thenApplyAsync(this::accepted, continuation));
    }

    private StoredResponse accepted(OrderAccepted accepted) {
        return new StoredResponse(201, "/orders/" + accepted.orderId(), json.writeValueAsString(accepted), false);
    }
}
