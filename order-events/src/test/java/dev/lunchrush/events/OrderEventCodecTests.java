package dev.lunchrush.events;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderEventCodecTests {

    private static final Menu MENU = new Menu(List.of(
            new Menu.Kitchen("k1", "Noodle Bar", List.of("pad-thai", "ramen", "spring-rolls", "gyoza")),
            new Menu.Kitchen("k2", "Pizza Oven", List.of("margherita", "diavola", "calzone"))));

    @Test
    void roundTripsAnEvent() {
        OrderEvent event = new OrderEvent("o-1", Instant.parse("2026-11-26T12:20:00.123Z"), "k1", "c-1042",
                List.of(new OrderItem("pad-thai", 2), new OrderItem("spring-rolls", 1)), "12 Mill Lane",
                "no peanuts", OrderEvent.ORIGIN_LIVE, "run-1", 7);

        byte[] json = OrderEventCodec.encode(event);

        assertThat(new String(json, StandardCharsets.UTF_8)).contains("\"placedAt\":\"2026-11-26T12:20:00.123Z\"");
        assertThat(OrderEventCodec.decode(json)).isEqualTo(event);
        assertThat(event.portions()).isEqualTo(3);
    }

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
    void rejectsWhatIsNotAnOrderEvent() {
        assertThatThrownBy(() -> OrderEventCodec.decode(new byte[] {0, 1, 2, (byte) 0xff}))
                .isInstanceOf(OrderEventFormatException.class);
        assertThatThrownBy(() -> OrderEventCodec.decode("{\"hello\":\"world\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(OrderEventFormatException.class);
        assertThatThrownBy(() -> OrderEventCodec.decode(
                "{\"orderId\":\"o\",\"kitchenId\":\"k1\",\"placedAt\":\"2026-11-26T12:20:00Z\",\"items\":[]}"
                        .getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(OrderEventFormatException.class);
    }

    @Test
    void rejectsAnOversizedEventEvenWhenItIsOtherwiseAnOrder() {
        OrderEvent event = new OrderEvent("o-1", Instant.parse("2026-11-26T12:20:00Z"), "k1", "c-1", List.of(
                new OrderItem("ramen", 1)), "12 Mill Lane", "x".repeat(OrderEventCodec.MAX_EVENT_BYTES),
                OrderEvent.ORIGIN_LIVE, "run-1", 1);
        byte[] json = OrderEventCodec.encode(event);

        assertThat(json.length).isGreaterThan(OrderEventCodec.MAX_EVENT_BYTES);
        assertThatThrownBy(() -> OrderEventCodec.decode(json)).isInstanceOf(OrderEventFormatException.class)
                .hasMessageContaining("more than " + OrderEventCodec.MAX_EVENT_BYTES);
    }
}
