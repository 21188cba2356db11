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

import org.springframework.stereotype.Service;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.orderservice.act.ActState;
import dev.lunchrush.orderservice.act.Acts;
import dev.lunchrush.orderservice.act.CurrentAct;
import dev.lunchrush.orderservice.problems.OutcomeUnknownException;
import dev.lunchrush.support.problems.ProblemException;

/**
 * Writes a valid order to the current act's outputs (the act's {@link dev.lunchrush.orderservice.act.ActOutput},
 * picked by {@link Acts}); its future completes only once they have durably taken it (broker confirm, Kafka ack, a
 * place in the feed). Any failure is a problem (503, 429), never a 201. Counts and times each order by act.
 */
@Service
public class OrderIntake {

    private final CurrentAct currentAct;
    private final Acts acts;
    private final OrderEvents orderEvents;
    private final RecentOrders recent;
    private final Map<Act, Counter> placed = new EnumMap<>(Act.class);
    private final Map<Act, Counter> refused = new EnumMap<>(Act.class);
    private final Map<IntakeOutcome, Timer> intakeTimers = new ConcurrentHashMap<>();
    private final MeterRegistry registry;

    OrderIntake(CurrentAct currentAct, Acts acts, OrderEvents orderEvents, RecentOrders recent, MeterRegistry registry) {
        this.currentAct = currentAct;
        this.acts = acts;
        this.orderEvents = orderEvents;
        this.recent = recent;
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

    /** The current act's output writes it; what it took is remembered for {@code GET /orders/{id}}. */
    private CompletableFuture<OrderEvent> write(ActState state, OrderRequest request) {
        return acts.output(state.act()).write(state, () -> orderEvents.live(request)).thenApply(written -> {
            byte[] encoded = written.encoded();
            if (encoded == null) {
                recent.remember(written.event());
            }
            else {
                recent.remember(written.event(), encoded);
            }
            return written.event();
        });
    }

    /** Orders accepted since this process started, all acts together. */
    public long placedTotal() {
        return placed.values().stream().mapToLong(counter -> (long) counter.count()).sum();
    }
}
