package dev.lunchrush.events;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a day's report adds up of an order: when it was placed, where, by whom and what. Read by
 * {@link OrderEventCodec#decodeTally} from the same bytes as an {@link OrderEvent}, with the same verdict on
 * poison, without making strings of the fields no report reads (the id, the address, the notes, the origin, the
 * run).
 *
 * @param placedAt when it was placed
 * @param kitchenId the kitchen it went to
 * @param customerId who placed it, if known
 * @param items its lines, at least one
 */
public record OrderTally(Instant placedAt, String kitchenId, @Nullable String customerId, List<OrderItem> items) {
}
