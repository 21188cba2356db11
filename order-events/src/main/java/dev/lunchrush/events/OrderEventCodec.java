package dev.lunchrush.events;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.Month;
import java.time.Year;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON form of {@link OrderEvent}: UTF-8, ISO-8601 instants. Readers that meet bytes this
 * codec cannot read, or an order with a field beyond {@link OrderLimits}, get an
 * {@link OrderEventFormatException} and dead-letter the record: whoever wrote it (the intake, an import, another
 * producer on the broker), no reader is handed an order its store was not made to hold.
 */
public final class OrderEventCodec {

    /** Writes events and makes parsers; events are read field by field (see {@link #read}), not data-bound. */
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /**
     * Makes the parsers: straight from the mapper's own factory, without the data binder's per-parser context that
     * {@code MAPPER.createParser} builds and a field-by-field read never uses.
     */
    private static final TokenStreamFactory PARSERS = MAPPER.tokenStreamFactory();

    /**
     * The largest event a reader accepts: twice the order service's largest order body (64 KB), so that
     * no order it writes comes near it. Bigger records are poison, dead-lettered unread.
     */
    public static final int MAX_EVENT_BYTES = 128 * 1024;

    private OrderEventCodec() {
    }

    public static byte[] encode(OrderEvent event) {
        return MAPPER.writeValueAsBytes(event);
    }

    /**
     * Reads an event and checks the fields every reader relies on.
     *
     * @throws OrderEventFormatException when the bytes are not JSON, not an order event, larger than
     *     {@link #MAX_EVENT_BYTES} or an order with a field beyond {@link OrderLimits}
     */
    public static OrderEvent decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    /**
     * Reads the event in {@code bytes[offset, offset + length)}: the same as {@link #decode(byte[])} for a
     * record value that is a slice of a larger buffer, read without copying it.
     */
    public static OrderEvent decode(byte[] bytes, int offset, int length) {
        return (OrderEvent) parse(bytes, offset, length, false);
    }

    /**
     * What a day's report needs of the event in {@code bytes[offset, offset + length)}, with the same checks and
     * the same {@link OrderEventFormatException} as {@link #decode(byte[], int, int)}: a replay reads every record
     * of a day, and the text of the fields no report reads (the id, the address, the notes, the origin, the run)
     * is checked where it stands and never made into strings.
     */
    public static OrderTally decodeTally(byte[] bytes, int offset, int length) {
        return (OrderTally) parse(bytes, offset, length, true);
    }

    /** An {@link OrderEvent}, or an {@link OrderTally} when {@code tally}. */
    private static Record parse(byte[] bytes, int offset, int length, boolean tally) {
        if (length > MAX_EVENT_BYTES) {
            throw new OrderEventFormatException("not an order event: " + length + " bytes, more than "
                    + MAX_EVENT_BYTES, null);
        }
        try (JsonParser parser = PARSERS.createParser(bytes, offset, length)) {
            return read(parser, tally);
        }
        catch (JacksonException ex) {
            throw new OrderEventFormatException("not an order event: " + ex.getOriginalMessage(), ex);
        }
        catch (DateTimeException | NumberFormatException ex) {
            throw new OrderEventFormatException("not an order event: " + ex.getMessage(), ex);
        }
    }

    /**
     * The event, field by field with the streaming parser: every reader decodes every record it reads, and
     * this reads one in about two thirds of the time of the data binder and with less garbage. Unknown
     * fields are skipped; text fields take any scalar as its text, as the data binder does. In a tally the
     * fields no report reads are checked as they would be read (a scalar or null; the id not blank) and
     * left unread, which the parser then skips.
     */
    private static Record read(JsonParser parser, boolean tally) {
        JsonToken token = parser.nextToken();
        if (token == null) {
            throw new OrderEventFormatException("not an order event: empty", null);
        }
        if (token != JsonToken.START_OBJECT) {
            throw new OrderEventFormatException("not an order event: " + token + " instead of an object", null);
        }
        String orderId = null;
        boolean orderIdPresent = false;
        Instant placedAt = null;
        String kitchenId = null;
        String customerId = null;
        List<OrderItem> items = null;
        String deliveryAddress = null;
        String notes = null;
        String origin = null;
        String run = null;
        long sequence = 0;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "orderId" -> {
                    if (tally) {
                        orderIdPresent = textNotBlank(parser, field, OrderLimits.MAX_EVENT_ID_LENGTH);
                    }
                    else {
                        orderId = text(parser, field, OrderLimits.MAX_EVENT_ID_LENGTH);
                        orderIdPresent = orderId != null && !orderId.isBlank();
                    }
                }
                case "placedAt" -> placedAt = instant(parser);
                case "kitchenId" -> kitchenId = text(parser, field, OrderLimits.MAX_ID_LENGTH);
                case "customerId" -> customerId = text(parser, field, OrderLimits.MAX_ID_LENGTH);
                case "items" -> items = items(parser);
                case "deliveryAddress" -> deliveryAddress = tally ? skipText(parser, field, OrderLimits.MAX_ADDRESS_LENGTH)
                        : text(parser, field, OrderLimits.MAX_ADDRESS_LENGTH);
                case "notes" -> notes = tally ? skipText(parser, field, OrderLimits.MAX_NOTES_LENGTH)
                        : text(parser, field, OrderLimits.MAX_NOTES_LENGTH);
                case "origin" -> origin = tally ? skipText(parser, field, OrderLimits.MAX_EVENT_ID_LENGTH)
                        : text(parser, field, OrderLimits.MAX_EVENT_ID_LENGTH);
                case "run" -> run = tally ? skipText(parser, field, OrderLimits.MAX_EVENT_ID_LENGTH)
                        : text(parser, field, OrderLimits.MAX_EVENT_ID_LENGTH);
                case "sequence" -> sequence = number(parser, field);
                default -> parser.skipChildren();
            }
        }
        if (parser.nextToken() != null) {
            throw new OrderEventFormatException("not an order event: more after the object", null);
        }
        if (items == null || items.isEmpty()) {
            throw new OrderEventFormatException("not an order event: no items", null);
        }
        if (!orderIdPresent) {
            throw missing("orderId");
        }
        if (kitchenId == null || kitchenId.isBlank()) {
            throw missing("kitchenId");
        }
        if (placedAt == null) {
            throw new OrderEventFormatException("not an order event: placedAt is missing", null);
        }
        if (placedAt.isBefore(OrderLimits.EARLIEST_PLACED_AT) || placedAt.isAfter(OrderLimits.LATEST_PLACED_AT)) {
            throw new OrderEventFormatException("not an order event: placedAt " + placedAt + " is not between "
                    + OrderLimits.EARLIEST_PLACED_AT + " and " + OrderLimits.LATEST_PLACED_AT, null);
        }
        return tally ? new OrderTally(placedAt, kitchenId, customerId, items)
                : new OrderEvent(orderId, placedAt, kitchenId, customerId, items, deliveryAddress, notes, origin, run,
                        sequence);
    }

    private static List<OrderItem> items(JsonParser parser) {
        if (parser.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw new OrderEventFormatException("not an order event: items is not a list", null);
        }
        List<OrderItem> items = new ArrayList<>(4);
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            if (items.size() == OrderLimits.MAX_ITEMS) {
                throw new OrderEventFormatException("not an order event: more than " + OrderLimits.MAX_ITEMS + " items",
                        null);
            }
            if (token != JsonToken.START_OBJECT) {
                throw new OrderEventFormatException("not an order event: bad item " + token, null);
            }
            String dish = null;
            long quantity = 0;
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                switch (field) {
                    case "dish" -> dish = text(parser, field, OrderLimits.MAX_ID_LENGTH);
                    case "quantity" -> quantity = number(parser, field);
                    default -> parser.skipChildren();
                }
            }
            if (dish == null || quantity <= 0 || quantity > OrderLimits.MAX_QUANTITY) {
                throw new OrderEventFormatException("not an order event: bad item " + dish + " x " + quantity, null);
            }
            items.add(new OrderItem(dish, (int) quantity));
        }
        return items;
    }

    private static String text(JsonParser parser, String field, int maxLength) {
        return hasText(parser, field, maxLength) ? parser.getString() : null;
    }

    /** {@link #text}'s check without the string: null, as a tally keeps no such field. */
    private static String skipText(JsonParser parser, String field, int maxLength) {
        hasText(parser, field, maxLength);
        return null;
    }

    /** Whether {@link #text} would give a text that is not blank, read from the parser's own characters. */
    private static boolean textNotBlank(JsonParser parser, String field, int maxLength) {
        if (!hasText(parser, field, maxLength)) {
            return false;
        }
        char[] characters = parser.getStringCharacters();
        int from = parser.getStringOffset();
        int to = from + parser.getStringLength();
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(characters[i])) {
                return true;
            }
        }
        return false;
    }

    /**
     * False for null, true for any scalar (its text is the field's) of at most {@code maxLength} characters,
     * poison for an object, a list or a longer text.
     */
    private static boolean hasText(JsonParser parser, String field, int maxLength) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return false;
        }
        if (!token.isScalarValue()) {
            throw new OrderEventFormatException("not an order event: " + field + " is not text", null);
        }
        int length = parser.getStringLength();
        if (length > maxLength) {
            throw new OrderEventFormatException("not an order event: " + field + " has " + length
                    + " characters, more than " + maxLength, null);
        }
        return true;
    }

    private static long number(JsonParser parser, String field) {
        return switch (parser.currentToken()) {
            case VALUE_NUMBER_INT -> parser.getLongValue();
            case VALUE_STRING -> Long.parseLong(parser.getString().trim());
            default -> throw new OrderEventFormatException("not an order event: " + field + " is not a whole number",
                    null);
        };
    }

    private static Instant instant(JsonParser parser) {
        return switch (parser.currentToken()) {
            case VALUE_STRING -> instant(parser.getStringCharacters(), parser.getStringOffset(),
                    parser.getStringLength());
            case VALUE_NULL -> null;
            default -> throw new OrderEventFormatException("not an order event: placedAt is not an ISO-8601 instant",
                    null);
        };
    }

    /** {@link #instant(char[], int, int)} of a whole string, as the tests hand it texts. */
    static Instant instant(String text) {
        return instant(text.toCharArray(), 0, text.length());
    }

    /**
     * {@link Instant#parse} of the text in {@code chars[offset, offset + length)}, trimmed, with a short way for the
     * form {@link #encode} writes ({@code 2026-11-26T12:20:00.123Z}, 0 to 9 digits of fraction), read where the
     * parser holds it: {@code Instant.parse} allocates more per call than the rest of the event. Anything else, or
     * anything the short way finds out of range, goes to {@code Instant.parse}.
     */
    static Instant instant(char[] chars, int offset, int length) {
        int from = offset;
        int to = offset + length;
        while (from < to && chars[from] <= ' ') {
            from++;
        }
        while (to > from && chars[to - 1] <= ' ') {
            to--;
        }
        int size = to - from;
        if (size >= 20 && size <= 30 && size != 21 && chars[from + 4] == '-' && chars[from + 7] == '-'
                && chars[from + 10] == 'T' && chars[from + 13] == ':' && chars[from + 16] == ':'
                && chars[to - 1] == 'Z' && (size == 20 || chars[from + 19] == '.')) {
            int year = digits(chars, from, 4);
            int month = digits(chars, from + 5, 2);
            int day = digits(chars, from + 8, 2);
            int hour = digits(chars, from + 11, 2);
            int minute = digits(chars, from + 14, 2);
            int second = digits(chars, from + 17, 2);
            int fractionDigits = size == 20 ? 0 : size - 21;
            int fraction = fractionDigits == 0 ? 0 : digits(chars, from + 20, fractionDigits);
            if ((year | month | day | hour | minute | second | fraction) >= 0 && month >= 1 && month <= 12 && day >= 1
                    && day <= Month.of(month).length(Year.isLeap(year)) && hour <= 23 && minute <= 59 && second <= 59) {
                return Instant.ofEpochSecond(epochDay(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second,
                        (long) fraction * NANO_SCALE[fractionDigits]);
            }
        }
        return Instant.parse(new String(chars, from, size));
    }

    /** Days from 1970-01-01 to a valid date of a year from 0 to 9999, as {@code LocalDate.toEpochDay} counts them. */
    private static long epochDay(int year, int month, int day) {
        long days = 365L * year + (year + 3) / 4 - (year + 99) / 100 + (year + 399) / 400 + (367 * month - 362) / 12
                + day - 1;
        if (month > 2) {
            days -= Year.isLeap(year) ? 1 : 2;
        }
        return days - DAYS_0000_TO_1970;
    }

    private static final long DAYS_0000_TO_1970 = 719_528;

    private static final int[] NANO_SCALE = {1, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1};

    /** The decimal number in {@code chars[from, from + count)}; -1 when a character is not a digit. */
    private static int digits(char[] chars, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            char c = chars[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static OrderEventFormatException missing(String field) {
        return new OrderEventFormatException("not an order event: " + field + " is missing", null);
    }
}
