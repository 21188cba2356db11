package dev.lunchrush.orderservice.intake;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Service;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.FeedStrategy;
import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.act.ActState;
import dev.lunchrush.orderservice.act.CurrentAct;
import dev.lunchrush.orderservice.feed.OrderFeed;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.publishing.KafkaOrderPublisher;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;
import dev.lunchrush.orderservice.web.BlockingWork;

/**
 * Writes a valid order to the current act's outputs; its future completes only once they have durably
 * taken it (broker confirm, Kafka ack, a place in the feed). Any failure is a 503 problem, never a 201.
 */
@Service
public class OrderIntake {

    private final CurrentAct currentAct;
    private final OrderEvents orderEvents;
    private final RabbitOrderPublisher rabbit;
    private final KafkaOrderPublisher kafka;
    private final OrderFeed feed;
    private final RecentOrders recent;
    private final BlockingWork blocking;
    private final Map<Act, Counter> placed = new EnumMap<>(Act.class);
    private final Map<Act, Counter> refused = new EnumMap<>(Act.class);
    private final Map<IntakeOutcome, Timer> intakeTimers = new ConcurrentHashMap<>();
    private final MeterRegistry registry;

    OrderIntake(CurrentAct currentAct, OrderEvents orderEvents, RabbitOrderPublisher rabbit, KafkaOrderPublisher kafka,
            OrderFeed feed, RecentOrders recent, BlockingWork blocking, MeterRegistry registry) {
        this.currentAct = currentAct;
        this.orderEvents = orderEvents;
        this.rabbit = rabbit;
        this.kafka = kafka;
        this.feed = feed;
        this.recent = recent;
        this.blocking = blocking;
        this.registry = registry;
        for (Act act : Act.values()) {
            placed.put(act, Counter.builder("orders.placed").tag("act", act.id())
                    .description("orders accepted (201) by POST /orders").register(registry));
            refused.put(act, Counter.builder("orders.refused").tag("act", act.id())
                    .description("valid orders that were not accepted: output down (503) or feed full (429, 503)")
                    .register(registry));
        }
    }

    /**
     * The order, written; the future completes once the act's output took it durably, on that output's
     * thread, and fails with a {@link ProblemException} (503, 429) when it did not.
     */
    public CompletableFuture<OrderAccepted> place(OrderRequest request) {
        ActState state = currentAct.get();
        long start = System.nanoTime();
        CompletableFuture<OrderEvent> written;
        try {
            written = write(state, request);
        }
        catch (ProblemException ex) {
            written = CompletableFuture.failedFuture(ex);
        }
        return written.handle((event, failure) -> {
            if (failure == null) {
                placed.get(state.act()).increment();
                intakeTimer(state.act(), "accepted").record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                return accepted(state, event);
            }
            Throwable cause = ProblemException.unwrap(failure);
            String outcome = cause instanceof ProblemException problem ? String.valueOf(problem.status().value()) : "500";
            refused.get(state.act()).increment();
            intakeTimer(state.act(), outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            if (cause instanceof OutcomeUnknownException unknown) {
                // the output may still take it: what it would have been answered then goes along
                throw unknown.<OrderEvent>then(late -> accepted(state, late));
            }
            throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
        });
    }

    private static OrderAccepted accepted(ActState state, OrderEvent event) {
        return new OrderAccepted(event.orderId(), event.placedAt(), event.kitchenId(), state.act().id(), event.sequence());
    }

    /** Registered on first use; kept here so that a request does not build and look up its timer in the registry. */
    private Timer intakeTimer(Act act, String outcome) {
        return intakeTimers.computeIfAbsent(new IntakeOutcome(act, outcome), key -> Timer.builder("order.intake")
                .tag("act", act.id()).tag("outcome", outcome)
                .description("time from a valid order to its answer, the output's confirm included")
                .publishPercentileHistogram()
                .register(registry));
    }

    private record IntakeOutcome(Act act, String outcome) {
    }

    private CompletableFuture<OrderEvent> write(ActState state, OrderRequest request) {
        switch (state.act()) {
            case SHARED_QUEUE -> {
                OrderEvent event = orderEvents.live(request);
                byte[] body = OrderEventCodec.encode(event);
                return rabbit.publish("", Topology.SHARED_QUEUE, event, body)
                        .handle((confirmed, failure) -> answered(event, body, failure));
            }
            case QUEUE_PER_READER -> {
                OrderEvent event = orderEvents.live(request);
                byte[] body = OrderEventCodec.encode(event);
                return rabbit.publish(Topology.FANOUT_EXCHANGE, "", event, body)
                        .handle((confirmed, failure) -> answered(event, body, failure));
            }
            case MEMORY_FEED -> {
                // room in the feed first: an order that the feed refuses (or makes wait) does not reach the
                // kitchen either, which is how "the kitchen is slowed too" shows under block; the event
                // enters the feed once the kitchen's queue took it, so an order the queue refuses (503) is
                // not counted by the job either. Only block waits for room, on a thread that may wait
                if (state.strategy() == FeedStrategy.BLOCK) {
                    return blocking.supply(() -> feed.reserve(state.strategy(), state.capacity(),
                            () -> orderEvents.live(request))).thenCompose(this::toKitchen);
                }
                return toKitchen(feed.reserve(state.strategy(), state.capacity(), () -> orderEvents.live(request)));
            }
            case LOG -> {
                OrderEvent event = orderEvents.live(request);
                // its SMS task is put on the work queue by the SMS relay, which reads the log
                return kafka.publish(event).handle((acked, failure) -> answered(event, null, failure));
            }
            default -> throw new IllegalStateException("unknown act " + state.act());
        }
    }

    /** The reserved order to the kitchen's queue; into the feed once RabbitMQ confirmed it, else its room back. */
    private CompletableFuture<OrderEvent> toKitchen(OrderFeed.Reservation reservation) {
        return rabbit.publish("", Topology.KITCHEN_QUEUE, reservation.event(), reservation.encoded())
                .whenComplete((confirmed, failure) -> {
                    if (failure == null) {
                        feed.commit(reservation);
                    }
                    else if (ProblemException.unwrap(failure) instanceof OutcomeUnknownException unknown
                            && unknown.outcome() != null) {
                        // the kitchen's queue may still take it: the feed follows RabbitMQ's real answer
                        unknown.outcome().whenComplete((late, lateFailure) -> {
                            if (lateFailure == null) {
                                feed.commit(reservation);
                            }
                            else {
                                feed.cancel(reservation);
                            }
                        });
                    }
                    else {
                        feed.cancel(reservation);
                    }
                })
                .handle((confirmed, failure) -> answered(reservation.event(), reservation.encoded(), failure));
    }

    /**
     * The event once its output took it, remembered for {@code GET /orders/{id}} ({@code encoded} when there is one);
     * a failure whose outcome is unknown goes on carrying the event it may have written.
     */
    private OrderEvent answered(OrderEvent event, byte @Nullable [] encoded, @Nullable Throwable failure) {
        if (failure != null) {
            Throwable cause = ProblemException.unwrap(failure);
            if (cause instanceof OutcomeUnknownException unknown) {
                throw unknown.withIfWritten(event);
            }
            throw cause instanceof RuntimeException runtime ? runtime : new CompletionException(cause);
        }
        if (encoded == null) {
            recent.remember(event);
        }
        else {
            recent.remember(event, encoded);
        }
        return event;
    }

    /** Orders accepted since this process started, all acts together. */
    public long placedTotal() {
        return placed.values().stream().mapToLong(counter -> (long) counter.count()).sum();
    }
}
