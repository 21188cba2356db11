package dev.lunchrush.orderservice.intake;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.stereotype.Service;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.OrderAccepted;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.act.ActState;
import dev.lunchrush.orderservice.act.CurrentAct;
import dev.lunchrush.orderservice.feed.OrderFeed;
import dev.lunchrush.orderservice.problems.ProblemException;
import dev.lunchrush.orderservice.publishing.KafkaOrderPublisher;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;

/**
 * Writes a valid order to the current act's outputs and returns only once they have durably taken
 * it (broker confirm, Kafka ack, a place in the feed). Any failure is a 503 problem, never a 201.
 */
@Service
public class OrderIntake {

    private final CurrentAct currentAct;
    private final OrderEvents orderEvents;
    private final RabbitOrderPublisher rabbit;
    private final KafkaOrderPublisher kafka;
    private final OrderFeed feed;
    private final RecentOrders recent;
    private final Map<Act, Counter> placed = new EnumMap<>(Act.class);
    private final Map<Act, Counter> refused = new EnumMap<>(Act.class);
    private final Map<IntakeOutcome, Timer> intakeTimers = new ConcurrentHashMap<>();
    private final MeterRegistry registry;

    OrderIntake(CurrentAct currentAct, OrderEvents orderEvents, RabbitOrderPublisher rabbit, KafkaOrderPublisher kafka,
            OrderFeed feed, RecentOrders recent, MeterRegistry registry) {
        this.currentAct = currentAct;
        this.orderEvents = orderEvents;
        this.rabbit = rabbit;
        this.kafka = kafka;
        this.feed = feed;
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

    public OrderAccepted place(OrderRequest request) {
        ActState state = currentAct.get();
        long start = System.nanoTime();
        String outcome = "accepted";
        try {
            OrderEvent event = write(state, request);
            placed.get(state.act()).increment();
            return new OrderAccepted(event.orderId(), event.placedAt(), event.kitchenId(), state.act().id(), event.sequence());
        }
        catch (ProblemException ex) {
            outcome = String.valueOf(ex.status().value());
            refused.get(state.act()).increment();
            throw ex;
        }
        finally {
            intakeTimer(state.act(), outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
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

    private OrderEvent write(ActState state, OrderRequest request) {
        switch (state.act()) {
            case SHARED_QUEUE -> {
                OrderEvent event = orderEvents.live(request);
                byte[] body = OrderEventCodec.encode(event);
                rabbit.publish("", Topology.SHARED_QUEUE, event, body);
                recent.remember(event, body);
                return event;
            }
            case QUEUE_PER_READER -> {
                OrderEvent event = orderEvents.live(request);
                byte[] body = OrderEventCodec.encode(event);
                rabbit.publish(Topology.FANOUT_EXCHANGE, "", event, body);
                recent.remember(event, body);
                return event;
            }
            case MEMORY_FEED -> {
                // room in the feed first: an order that the feed refuses (or makes wait) does not reach
                // the kitchen either, which is how "the kitchen is slowed too" shows under block; the
                // event enters the feed once the kitchen's queue took it, so an order the queue
                // refuses (503) is not counted by the job either
                OrderFeed.Reservation reservation = feed.reserve(state.strategy(), state.capacity(),
                        () -> orderEvents.live(request));
                boolean published = false;
                try {
                    rabbit.publish("", Topology.KITCHEN_QUEUE, reservation.event(), reservation.encoded());
                    published = true;
                }
                finally {
                    if (published) {
                        feed.commit(reservation);
                    }
                    else {
                        feed.cancel(reservation);
                    }
                }
                recent.remember(reservation.event(), reservation.encoded());
                return reservation.event();
            }
            case LOG -> {
                OrderEvent event = orderEvents.live(request);
                // its SMS task is put on the work queue by the SMS relay, which reads the log
                kafka.publish(event);
                recent.remember(event);
                return event;
            }
            default -> throw new IllegalStateException("unknown act " + state.act());
        }
    }

    /** Orders accepted since this process started, all acts together. */
    public long placedTotal() {
        return placed.values().stream().mapToLong(counter -> (long) counter.count()).sum();
    }
}
