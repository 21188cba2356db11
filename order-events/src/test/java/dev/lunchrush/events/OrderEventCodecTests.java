package dev.lunchrush.events;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderEventCodecTests {

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

    /** An order with every field at its limit, in characters of three and four bytes of UTF-8. */
    static OrderEvent atTheLimits() {
        List<OrderItem> items = IntStream.range(0, OrderLimits.MAX_ITEMS)
                .mapToObj(i -> new OrderItem(text(OrderLimits.MAX_ID_LENGTH - 2) + "%02d".formatted(i), OrderLimits.MAX_QUANTITY))
                .toList();
        return new OrderEvent(text(OrderLimits.MAX_EVENT_ID_LENGTH), OrderLimits.LATEST_PLACED_AT,
                text(OrderLimits.MAX_ID_LENGTH), text(OrderLimits.MAX_ID_LENGTH), items, text(OrderLimits.MAX_ADDRESS_LENGTH),
                text(OrderLimits.MAX_NOTES_LENGTH), text(OrderLimits.MAX_EVENT_ID_LENGTH),
                text(OrderLimits.MAX_EVENT_ID_LENGTH), Long.MAX_VALUE);
    }

    /** {@code length} UTF-16 units: a euro sign (3 bytes of UTF-8), then a clef (a surrogate pair, 4 bytes), and so on. */
    private static String text(int length) {
        StringBuilder text = new StringBuilder(length);
        while (text.length() < length) {
            text.append(length - text.length() >= 2 && text.length() % 3 == 1 ? "\uD834\uDD1E" : "\u20AC");
        }
        return text.toString();
    }

    @Test
    void readsAnOrderWithEveryFieldAtItsLimit() {
        OrderEvent event = atTheLimits();
        byte[] json = OrderEventCodec.encode(event);

        assertThat(OrderEventCodec.decode(json)).isEqualTo(event);
        assertThat(OrderEventCodec.decodeTally(json, 0, json.length)).isEqualTo(tallyOf(event));
        OrderEvent earliest = new OrderEvent("o-1", OrderLimits.EARLIEST_PLACED_AT, "k1", null,
                List.of(new OrderItem("ramen", 1)), "12 Mill Lane", null, OrderEvent.ORIGIN_IMPORT, "", 0);
        assertThat(OrderEventCodec.decode(OrderEventCodec.encode(earliest))).isEqualTo(earliest);
    }

    @Test
    void refusesAnOrderWithAFieldBeyondItsLimitWhoeverWroteIt() {
        OrderEvent limits = atTheLimits();
        String longer = "x";
        List<OrderItem> oneMoreItem = new java.util.ArrayList<>(limits.items());
        oneMoreItem.add(new OrderItem("ramen", 1));
        Map<String, OrderEvent> beyond = new LinkedHashMap<>();
        beyond.put("orderId", with(limits, limits.orderId() + longer, limits.kitchenId(), limits.customerId(), limits.items(),
                limits.deliveryAddress(), limits.notes(), limits.origin(), limits.run(), limits.placedAt()));
        beyond.put("kitchenId", with(limits, limits.orderId(), limits.kitchenId() + longer, limits.customerId(), limits.items(),
                limits.deliveryAddress(), limits.notes(), limits.origin(), limits.run(), limits.placedAt()));
        beyond.put("customerId", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId() + longer,
                limits.items(), limits.deliveryAddress(), limits.notes(), limits.origin(), limits.run(), limits.placedAt()));
        beyond.put("dish", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId(),
                List.of(new OrderItem(limits.items().get(0).dish() + longer, 1)), limits.deliveryAddress(), limits.notes(),
                limits.origin(), limits.run(), limits.placedAt()));
        beyond.put("deliveryAddress", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId(), limits.items(),
                limits.deliveryAddress() + longer, limits.notes(), limits.origin(), limits.run(), limits.placedAt()));
        beyond.put("notes", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId(), limits.items(),
                limits.deliveryAddress(), limits.notes() + longer, limits.origin(), limits.run(), limits.placedAt()));
        beyond.put("origin", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId(), limits.items(),
                limits.deliveryAddress(), limits.notes(), limits.origin() + longer, limits.run(), limits.placedAt()));
        beyond.put("run", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId(), limits.items(),
                limits.deliveryAddress(), limits.notes(), limits.origin(), limits.run() + longer, limits.placedAt()));
        beyond.put("more than " + OrderLimits.MAX_ITEMS + " items", with(limits, limits.orderId(), limits.kitchenId(),
                limits.customerId(), oneMoreItem, limits.deliveryAddress(), limits.notes(), limits.origin(), limits.run(),
                limits.placedAt()));
        beyond.put("x " + (OrderLimits.MAX_QUANTITY + 1), with(limits, limits.orderId(), limits.kitchenId(),
                limits.customerId(), List.of(new OrderItem("ramen", OrderLimits.MAX_QUANTITY + 1)), limits.deliveryAddress(),
                limits.notes(), limits.origin(), limits.run(), limits.placedAt()));
        beyond.put("placedAt +10000", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId(), limits.items(),
                limits.deliveryAddress(), limits.notes(), limits.origin(), limits.run(), limits.placedAt().plusNanos(1)));
        beyond.put("placedAt -1000000000", with(limits, limits.orderId(), limits.kitchenId(), limits.customerId(),
                limits.items(), limits.deliveryAddress(), limits.notes(), limits.origin(), limits.run(), Instant.MIN));
        beyond.forEach((what, event) -> {
            byte[] json = OrderEventCodec.encode(event);
            assertThatThrownBy(() -> OrderEventCodec.decode(json)).as(what)
                    .isInstanceOf(OrderEventFormatException.class).hasMessageStartingWith("not an order event")
                    .hasMessageContaining(what);
            assertThatThrownBy(() -> OrderEventCodec.decodeTally(json, 0, json.length)).as("tally, " + what)
                    .isInstanceOf(OrderEventFormatException.class).hasMessageContaining(what);
        });
    }

    private static OrderEvent with(OrderEvent event, String orderId, String kitchenId, String customerId,
            List<OrderItem> items, String deliveryAddress, String notes, String origin, String run, Instant placedAt) {
        return new OrderEvent(orderId, placedAt, kitchenId, customerId, items, deliveryAddress, notes, origin, run,
                event.sequence());
    }

    @Test
    void readsASliceOfALargerBufferAndSkipsUnknownFields() {
        String json = "{\"extra\":{\"nested\":[1,{\"a\":null}]},\"orderId\":\"o-9\",\"placedAt\":\"2026-11-26T12:20:00Z\","
                + "\"kitchenId\":\"k2\",\"customerId\":42,\"items\":[{\"dish\":\"diavola\",\"quantity\":\"3\",\"size\":\"L\"}],"
                + "\"sequence\":5}";
        byte[] buffer = ("garbage" + json + "more garbage").getBytes(StandardCharsets.UTF_8);

        OrderEvent event = OrderEventCodec.decode(buffer, 7, json.length());

        assertThat(event.orderId()).isEqualTo("o-9");
        assertThat(event.customerId()).isEqualTo("42");
        assertThat(event.items()).containsExactly(new OrderItem("diavola", 3));
        assertThat(event.sequence()).isEqualTo(5);
        assertThat(event.notes()).isNull();
    }

    @Test
    void rejectsEveryMalformedShapeAsNotAnOrderEvent() {
        String valid = "\"orderId\":\"o\",\"kitchenId\":\"k1\",\"placedAt\":\"2026-11-26T12:20:00Z\"";
        List<String> poison = List.of(
                "",
                "[]",
                "\"an order\"",
                "{" + valid + "}",
                "{" + valid + ",\"items\":null}",
                "{" + valid + ",\"items\":{\"dish\":\"ramen\"}}",
                "{" + valid + ",\"items\":[null]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\"}]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":null}]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1.5}]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":-2}]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":99999999999}]}",
                "{" + valid + ",\"items\":[{\"dish\":{\"name\":\"ramen\"},\"quantity\":1}]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}],\"sequence\":\"first\"}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}],\"notes\":[\"a\"]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]} {}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]",
                "{\"orderId\":\"o\",\"kitchenId\":\"k1\",\"placedAt\":\"yesterday\",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{\"orderId\":\"o\",\"kitchenId\":\"k1\",\"placedAt\":1764159600,\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{\"orderId\":\" \",\"kitchenId\":\"k1\",\"placedAt\":\"2026-11-26T12:20:00Z\",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{\"orderId\":\"\\t \\n\",\"kitchenId\":\"k1\",\"placedAt\":\"2026-11-26T12:20:00Z\",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{\"orderId\":null,\"kitchenId\":\"k1\",\"placedAt\":\"2026-11-26T12:20:00Z\",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{\"kitchenId\":\"k1\",\"placedAt\":\"2026-11-26T12:20:00Z\",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{\"orderId\":[\"o\"],\"kitchenId\":\"k1\",\"placedAt\":\"2026-11-26T12:20:00Z\",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{\"orderId\":\"o\",\"kitchenId\":\" \",\"placedAt\":\"2026-11-26T12:20:00Z\",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}],\"deliveryAddress\":{\"street\":\"x\"}}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}],\"run\":[1]}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}],\"origin\":{}}",
                "{" + valid + ",\"items\":[{\"dish\":\"ramen\",\"quantity\":1}],\"deliveryAddress\":\"unterminated");
        for (String json : poison) {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> OrderEventCodec.decode(bytes))
                    .as(json).isInstanceOf(OrderEventFormatException.class).hasMessageStartingWith("not an order event");
            assertThatThrownBy(() -> OrderEventCodec.decodeTally(bytes, 0, bytes.length))
                    .as("tally of " + json).isInstanceOf(OrderEventFormatException.class)
                    .hasMessageStartingWith("not an order event");
        }
    }

    @Test
    void aTallyTakesWhatTheWholeEventTakes() {
        String json = "{\"orderId\":7,\"placedAt\":\"2026-11-26T12:20:00Z\",\"kitchenId\":\"k2\",\"deliveryAddress\":null,"
                + "\"notes\":true,\"origin\":\"import\",\"run\":\"r\",\"items\":[{\"dish\":\"diavola\",\"quantity\":\"3\"}]}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);

        OrderEvent event = OrderEventCodec.decode(bytes);

        assertThat(event.orderId()).isEqualTo("7");
        assertThat(OrderEventCodec.decodeTally(bytes, 0, bytes.length)).isEqualTo(tallyOf(event))
                .isEqualTo(new OrderTally(Instant.parse("2026-11-26T12:20:00Z"), "k2", null,
                        List.of(new OrderItem("diavola", 3))));
    }

    @Test
    void aTallyCountsTheCharactersOfTheTextsItSkipsExactly() {
        Map<String, Integer> limits = new LinkedHashMap<>();
        limits.put("deliveryAddress", OrderLimits.MAX_ADDRESS_LENGTH);
        limits.put("notes", OrderLimits.MAX_NOTES_LENGTH);
        limits.put("origin", OrderLimits.MAX_EVENT_ID_LENGTH);
        limits.put("run", OrderLimits.MAX_EVENT_ID_LENGTH);
        OrderTally expected = new OrderTally(Instant.parse("2026-11-26T12:20:00Z"), "k2", "c-1",
                List.of(new OrderItem("ramen", 2)));
        limits.forEach((field, limit) -> {
            for (String text : List.of("a".repeat(limit), "\\u00e9".repeat(limit), "\\n".repeat(limit),
                    "\u20AC".repeat(limit))) {
                for (String spaces : List.of("", " ".repeat(64))) {
                    String json = "{\"orderId\":\"o-1\",\"" + field + "\":\"" + text + "\"" + spaces
                            + ",\"placedAt\":\"2026-11-26T12:20:00Z\",\"kitchenId\":\"k2\",\"customerId\":\"c-1\","
                            + "\"items\":[{\"dish\":\"ramen\",\"quantity\":2}],\"" + field + "\":\"" + text + "\"" + spaces + "}";
                    byte[] buffer = ("prefix" + json + "suffix").getBytes(StandardCharsets.UTF_8);
                    int length = buffer.length - "prefixsuffix".length();
                    assertThat(OrderEventCodec.decodeTally(buffer, 6, length)).as(field + " of " + limit)
                            .isEqualTo(expected);
                }
                String longer = "{\"orderId\":\"o-1\",\"placedAt\":\"2026-11-26T12:20:00Z\",\"kitchenId\":\"k2\","
                        + "\"items\":[{\"dish\":\"ramen\",\"quantity\":2}],\"" + field + "\":\"" + text + "b\"}";
                byte[] bytes = longer.getBytes(StandardCharsets.UTF_8);
                assertThatThrownBy(() -> OrderEventCodec.decodeTally(bytes, 0, bytes.length))
                        .as(field + " of " + (limit + 1)).isInstanceOf(OrderEventFormatException.class)
                        .hasMessageContaining(field);
            }
        });
    }

    @Test
    void readsInstantsAsInstantParseDoes() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 20_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextLong(-62_000_000_000L, 250_000_000_000L),
                    i % 4 == 0 ? 0 : i % 4 == 1 ? random.nextInt(1000) * 1_000_000 : random.nextInt(1_000_000_000));
            assertThat(OrderEventCodec.instant(instant.toString())).isEqualTo(instant);
        }
        for (String text : List.of("2026-11-26T12:20:00Z", "2026-11-26T12:20:00.1Z", "2026-11-26T12:20:00.123456789Z",
                "2024-02-29T23:59:59.999Z", "2026-11-26T12:20:00+01:00", "2026-12-31T23:59:60Z", "+12026-11-26T12:20:00Z",
                "2026-02-29T12:20:00Z", "2026-13-01T12:20:00Z", "2026-11-26T24:00:00Z", "2026-11-26T12:20:00.Z",
                "2026-11-26T12:2a:00Z", "2026-11-26 12:20:00Z", "2026-11-26T12:20:00.1234567890Z", "0000-01-01T00:00:00Z",
                " 2026-11-26T12:20:00Z ", "\t2026-11-26T12:20:00.5Z\n", "   ", "")) {
            Object expected;
            try {
                expected = Instant.parse(text.trim());
            }
            catch (java.time.DateTimeException ex) {
                expected = ex.getClass();
            }
            Object actual;
            try {
                actual = OrderEventCodec.instant(text);
            }
            catch (java.time.DateTimeException ex) {
                actual = ex.getClass();
            }
            assertThat(actual).as(text).isEqualTo(expected);
        }
    }

    @Test
    void readsAnInstantWhereItStandsInALargerBufferOfCharacters() {
        char[] buffer = "9999-99-99T99:99:99Z2026-11-26T12:20:00.120Zx2026-11-26T12:20:00Z".toCharArray();
        assertThat(OrderEventCodec.instant(buffer, 20, 24)).isEqualTo(Instant.parse("2026-11-26T12:20:00.120Z"));
        assertThat(OrderEventCodec.instant(buffer, 45, 20)).isEqualTo(Instant.parse("2026-11-26T12:20:00Z"));
    }

    /** What a tally of the event must hold: its own fields of the same names. */
    private static OrderTally tallyOf(OrderEvent event) {
        return new OrderTally(event.placedAt(), event.kitchenId(), event.customerId(), event.items());
    }
}
