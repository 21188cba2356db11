package dev.lunchrush.orderservice.intake;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderRequest;

import static org.assertj.core.api.Assertions.assertThat;

class OrderEventsTests {

    private static final OrderRequest REQUEST = new OrderRequest("k1", "c-1", List.of(new OrderItem("margherita", 2)),
            "1 Main Street", null);

    @Test
    void orderIdsAreVersion7UuidsOfThePlacingTimeAndSortAsTheOrdersWerePlaced() {
        Instant start = Instant.parse("2026-11-30T12:00:00.123Z");
        List<String> ids = new ArrayList<>();
        for (int millis = 0; millis < 2_000; millis += 7) {
            OrderEvents events = new OrderEvents(Clock.fixed(start.plusMillis(millis), ZoneOffset.UTC));
            OrderEvent event = events.live(REQUEST);
            UUID id = UUID.fromString(event.orderId());
            assertThat(id.version()).isEqualTo(7);
            assertThat(id.variant()).isEqualTo(2);
            assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(event.placedAt().toEpochMilli());
            ids.add(event.orderId());
        }
        // a store keyed by order id adds each new order at the end of its index
        assertThat(ids).isSorted();
    }

    @Test
    void ordersPlacedInTheSameMillisecondGetDistinctIds() {
        OrderEvents events = new OrderEvents(Clock.fixed(Instant.parse("2026-11-30T12:00:00Z"), ZoneOffset.UTC));
        HashSet<String> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(events.live(REQUEST).orderId());
        }
        assertThat(ids).hasSize(10_000);
    }

    @Test
    void importedOrdersCarryTheirPastTimeInTheirIds() {
        Instant lastThursday = Instant.parse("2026-11-26T12:30:00.456Z");
        OrderEvent event = OrderEvents.imported(lastThursday, REQUEST);
        UUID id = UUID.fromString(event.orderId());
        assertThat(id.version()).isEqualTo(7);
        assertThat(Instant.ofEpochMilli(id.getMostSignificantBits() >>> 16)).isEqualTo(lastThursday);
        assertThat(OrderEvents.imported(lastThursday.plus(Duration.ofMillis(1)), REQUEST).orderId()).isGreaterThan(event.orderId());
    }
}
