package dev.lunchrush.orderservice.intake;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.uuid.Generators;
import com.fasterxml.uuid.impl.TimeBasedEpochRandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderRequest;

/**
 * Makes the events of live orders: a new id, the time, this run's id and the next sequence number.
 * The run is new at every start of the process, so that readers can tell a restart (sequence back to
 * 1 under a new run) from orders that went missing (a gap within one run).
 *
 * <p>Order ids are time-ordered UUIDs (version 7, RFC 9562) of the time the order was placed: every
 * store keyed by order id (the SMS log here, the kitchen screen's shown orders) then adds each new
 * order at the end of its index, in pages that are already in memory, instead of at a random place in
 * a B-tree that has to be read from disk first.
 */
@Component
public class OrderEvents {

    private static final Logger log = LoggerFactory.getLogger(OrderEvents.class);

    private static final TimeBasedEpochRandomGenerator ORDER_IDS = Generators.timeBasedEpochRandomGenerator();

    private final String run = UUID.randomUUID().toString();
    private final AtomicLong sequence = new AtomicLong();
    private final Clock clock;

    OrderEvents() {
        this(Clock.systemUTC());
        log.info("order service run {}", run);
    }

    OrderEvents(Clock clock) {
        this.clock = clock;
    }

    /**
     * The event of a live order. Call it only once the order will be written: a sequence number
     * taken by an order that is then refused shows up at the readers as a missing order.
     * placedAt is cut to milliseconds, the resolution of Kafka's record timestamp, so both agree.
     */
    public OrderEvent live(OrderRequest request) {
        Instant placedAt = Instant.now(clock).truncatedTo(ChronoUnit.MILLIS);
        return new OrderEvent(orderId(placedAt), placedAt, request.kitchenId(), request.customerId(), request.items(),
                request.deliveryAddress(), request.notes(), OrderEvent.ORIGIN_LIVE, run, sequence.incrementAndGet());
    }

    /** A past order put in by the import: no run of ours, sequence 0. */
    public static OrderEvent imported(Instant placedAt, OrderRequest request) {
        Instant at = placedAt.truncatedTo(ChronoUnit.MILLIS);
        return new OrderEvent(orderId(at), at, request.kitchenId(), request.customerId(), request.items(),
                request.deliveryAddress(), request.notes(), OrderEvent.ORIGIN_IMPORT, "import", 0);
    }

    private static String orderId(Instant placedAt) {
        return ORDER_IDS.construct(placedAt.toEpochMilli()).toString();
    }

    public String run() {
        return run;
    }
}
