package dev.lunchrush.events;

import java.time.Instant;

/**
 * The limits of an order's fields, one set for every writer and every reader: the order service's intake refuses
 * an order beyond them (400, nothing written), {@link OrderEventCodec} refuses a record beyond them whoever wrote
 * it (poison, dead-lettered by every reader), and every reader's store holds anything within them. Lengths are in
 * characters as {@link String#length()} counts them (UTF-16 units).
 */
public final class OrderLimits {

    /** A kitchen's id, a customer's id, a dish: what a client names. */
    public static final int MAX_ID_LENGTH = 64;

    /**
     * The ids the writer makes, not the client: the order's id, the run's, the origin. The order service's are
     * UUIDs (36 characters) and {@code live} or {@code import}; the room beyond is for other producers' ids.
     */
    public static final int MAX_EVENT_ID_LENGTH = 128;

    public static final int MAX_ADDRESS_LENGTH = 500;

    public static final int MAX_NOTES_LENGTH = 4000;

    /** Lines in one order: at least one. */
    public static final int MAX_ITEMS = 20;

    /** Portions of one dish in one line, at least one; more is taken for a typo. */
    public static final int MAX_QUANTITY = 50;

    /** The message of a required text field that is missing, null or blank. */
    public static final String REQUIRED = "is required and must not be blank";

    /**
     * The message of a text field over its length ({@code {max}}: the limit). Its {@code min} of 1 is for the OpenAPI
     * document: an empty text breaks {@code @NotBlank} too, whose message ({@link #REQUIRED}) is the one given.
     */
    public static final String AT_MOST_CHARACTERS = "must be at most {max} characters";

    /** The earliest placedAt: the first instant of year 1, as ISO-8601 writes years with four digits. */
    public static final Instant EARLIEST_PLACED_AT = Instant.parse("0001-01-01T00:00:00Z");

    /** The latest placedAt: the last instant of year 9999. */
    public static final Instant LATEST_PLACED_AT = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private OrderLimits() {
    }
}
