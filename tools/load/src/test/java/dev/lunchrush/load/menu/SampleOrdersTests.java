package dev.lunchrush.load.menu;

import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.events.OrderTally;

import static org.assertj.core.api.Assertions.assertThat;

/** The sample orders are the size of the lesson's events, and the codec reads them as the data binder does. */
class SampleOrdersTests {

    private static final Menu MENU = new Menu(List.of(
            new Menu.Kitchen("k1", "Noodle Bar", List.of("pad-thai", "ramen", "spring-rolls", "gyoza")),
            new Menu.Kitchen("k2", "Pizza Oven", List.of("margherita", "diavola", "calzone"))));

    @Test
    void aTypicalGeneratedOrderIsAboutOneKilobyte() {
        SampleOrders orders = new SampleOrders(MENU, new SplittableRandom(42));
        double average = IntStream.range(0, 2000).mapToObj(i -> orders.next())
                .map(request -> new OrderEvent("3f1c2a9e-5b7d-4e0f-9a1b-2c3d4e5f6a7b", Instant.now(),
                        request.kitchenId(), request.customerId(), request.items(), request.deliveryAddress(),
                        request.notes(), OrderEvent.ORIGIN_LIVE, "5b7d4e0f", 123456))
                .mapToInt(event -> OrderEventCodec.encode(event).length)
                .average().orElseThrow();

        assertThat(average).isBetween(850.0, 1200.0);
    }

    @Test
    void readsGeneratedOrdersAsTheDataBinderDoes() {
        SampleOrders orders = new SampleOrders(MENU, new SplittableRandom(7));
        JsonMapper binder = JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        for (int i = 0; i < 500; i++) {
            OrderRequest request = orders.next();
            OrderEvent event = new OrderEvent("o-" + i, Instant.parse("2026-11-26T12:20:00.123Z").plusSeconds(i),
                    request.kitchenId(), request.customerId(), request.items(), request.deliveryAddress(),
                    i % 5 == 0 ? null : request.notes(), OrderEvent.ORIGIN_LIVE, "run-1", i);
            byte[] json = OrderEventCodec.encode(event);

            assertThat(OrderEventCodec.decode(json)).isEqualTo(event).isEqualTo(binder.readValue(json, OrderEvent.class));
        }
    }

    @Test
    void talliesGeneratedOrdersAsTheWholeEventReadsThem() {
        SampleOrders orders = new SampleOrders(MENU, new SplittableRandom(13));
        for (int i = 0; i < 500; i++) {
            OrderRequest request = orders.next();
            OrderEvent event = new OrderEvent("o-" + i, Instant.parse("2026-11-26T12:20:00.123Z").plusSeconds(i),
                    request.kitchenId(), i % 7 == 0 ? null : request.customerId(), request.items(),
                    request.deliveryAddress(), i % 5 == 0 ? null : request.notes(), OrderEvent.ORIGIN_LIVE, "run-1", i);
            byte[] json = OrderEventCodec.encode(event);

            assertThat(OrderEventCodec.decodeTally(json, 0, json.length)).isEqualTo(tallyOf(event));
        }
    }

    /** What a tally of the event must hold: its own fields of the same names. */
    private static OrderTally tallyOf(OrderEvent event) {
        return new OrderTally(event.placedAt(), event.kitchenId(), event.customerId(), event.items());
    }
}
