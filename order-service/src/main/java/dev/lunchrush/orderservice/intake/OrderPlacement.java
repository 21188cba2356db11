package dev.lunchrush.orderservice.intake;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.act.Acts;
import dev.lunchrush.orderservice.idempotency.IdempotencyStore;
import dev.lunchrush.orderservice.idempotency.StoredResponse;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.support.problems.ProblemType;
import dev.lunchrush.orderservice.storage.LocalStore;
import dev.lunchrush.orderservice.web.BlockingWork;

/**
 * What {@code POST /orders} answers ({@link OrderEndpoint}): the body parsed and checked, the Idempotency-Key honoured, the order written
 * by {@link OrderIntake}.
 *
 * <p>An order with a key whose outcome goes unknown leaves its would-be answer (its {@link OrderAccepted}) as a note
 * under the key, so that the outcome outlives the process: the broker's late answer replaces it in this process
 * ({@link IdempotencyStore}); a retry that finds it, after a restart lost that answer, learns what it can
 * ({@link #earlierUnknown}). A note is written only then: an order with a key whose outcome is known costs what it did.
 */
@Component
class OrderPlacement {

    private static final Logger log = LoggerFactory.getLogger(OrderPlacement.class);

    private final OrderRequestParser parser;
    private final OrderIntake intake;
    private final Acts acts;
    private final IdempotencyStore idempotency;
    private final OrdersInTheLog orders;
    private final BlockingWork blocking;
    private final JsonMapper json;

    OrderPlacement(OrderRequestParser parser, OrderIntake intake, Acts acts, IdempotencyStore idempotency,
            OrdersInTheLog orders, BlockingWork blocking, JsonMapper json) {
        this.parser = parser;
        this.intake = intake;
        this.acts = acts;
        this.idempotency = idempotency;
        this.orders = orders;
        this.blocking = blocking;
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
        // the hash is of the parsed order, so that whitespace or key order do not make it "different"
        return idempotency.execute(idempotencyKey, json.writeValueAsBytes(order), attempt -> {
            byte[] note = attempt.earlierNote();
            return note == null ? write(order, attempt, continuation) : earlierUnknown(order, note, attempt, continuation);
        });
    }

    /**
     * The order written under its key; an order whose outcome is unknown at its deadline carries the answer it gets if
     * the output takes it after all, and leaves that answer under the key.
     */
    private CompletableFuture<StoredResponse> write(OrderRequest order, IdempotencyStore.Attempt attempt, Executor continuation) {
        return intake.place(order).exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                ProblemException.unwrap(failure) instanceof OutcomeUnknownException unknown
                        ? noted(unknown.<OrderAccepted>then(this::accepted), attempt) : failure))
                .thenApplyAsync(this::accepted, continuation);
    }

    private OutcomeUnknownException noted(OutcomeUnknownException unknown, IdempotencyStore.Attempt attempt) {
        if (unknown.ifWritten() instanceof StoredResponse answer) {
            try {
                attempt.leaveNote(answer.body().getBytes(StandardCharsets.UTF_8));
            }
            catch (LocalStore.StoreException ex) {
                log.error("could not keep the unknown outcome of {}: a retry after a restart may place it again",
                        answer.location(), ex);
            }
        }
        return unknown;
    }

    /**
     * A retry of an order whose outcome went unknown and whose broker's answer never came to this process (it was
     * restarted meanwhile, or the answer will not come): where the first attempt's act can be asked for an order
     * ({@link dev.lunchrush.orderservice.act.ActOutput#canBeAskedForAnOrder()}, the log), it says: found, the first
     * attempt's 201; not found, the order is placed now; the log unread, 503 outcome unknown again. RabbitMQ cannot be
     * asked about a message: 409, the order not placed again under this key.
     */
    private CompletableFuture<StoredResponse> earlierUnknown(OrderRequest order, byte[] note, IdempotencyStore.Attempt attempt,
            Executor continuation) {
        OrderAccepted earlier = json.readValue(note, OrderAccepted.class);
        if (!Act.find(earlier.act()).map(act -> acts.output(act).canBeAskedForAnOrder()).orElse(false)) {
            throw new ProblemException(ProblemType.OUTCOME_LOST, "Outcome unknown", "the first request with this "
                    + "Idempotency-Key, order " + earlier.orderId() + " (act " + earlier.act() + "), was handed to RabbitMQ, "
                    + "whose answer this service never got (it was restarted, or lost the connection, meanwhile): the order "
                    + "may be in the queue or not, and RabbitMQ cannot be asked which. It is not placed again under this "
                    + "key; if order " + earlier.orderId() + " did not reach the kitchen, place it under a new key");
        }
        return blocking.supply(() -> orders.holds(earlier)).thenComposeAsync(found -> {
            if (Boolean.TRUE.equals(found)) {
                log.info("order {} of an unknown outcome is in the log: its answer stored for the retry", earlier.orderId());
                return CompletableFuture.completedFuture(accepted(earlier).asReplay());
            }
            if (Boolean.FALSE.equals(found)) {
                log.info("order {} of an unknown outcome is not in the log: placing it now", earlier.orderId());
                return write(order, attempt, continuation);
            }
            return CompletableFuture.failedFuture(new OutcomeUnknownException("the first request with this "
                    + "Idempotency-Key, order " + earlier.orderId() + ", went to Kafka, whose answer was lost with a restart, "
                    + "and the log could not be read within " + OrdersInTheLog.BUDGET.toSeconds() + " s to learn whether it "
                    + "holds it. Send it again later with the same Idempotency-Key (it is then placed once)", null));
        }, continuation);
    }

    private StoredResponse accepted(OrderAccepted accepted) {
        return new StoredResponse(201, "/orders/" + accepted.orderId(), json.writeValueAsString(accepted), false);
    }
}
