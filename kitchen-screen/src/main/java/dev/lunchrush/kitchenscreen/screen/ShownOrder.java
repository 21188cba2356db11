package dev.lunchrush.kitchenscreen.screen;

import java.time.Instant;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import dev.lunchrush.events.OrderEvent;

/**
 * An order as a kitchen's column shows it; {@code trace}, where its trace is shown, when it was traced and this
 * process received it (the journal keeps no trace: an order shown again after a restart has none).
 */
public record ShownOrder(String orderId, String kitchenId, String run, long sequence, Instant placedAt,
        Instant shownAt, String customerId, String summary, String source, long latencyMillis, @Nullable String trace) {

    ShownOrder withTrace(String link) {
        return new ShownOrder(orderId, kitchenId, run, sequence, placedAt, shownAt, customerId, summary, source,
                latencyMillis, link);
    }

    static ShownOrder of(OrderEvent event, String source, Instant shownAt) {
        String summary = event.items().stream()
                .map(item -> item.quantity() + "× " + item.dish())
                .collect(Collectors.joining(", "));
        if (summary.length() > 480) {
            summary = summary.substring(0, 480) + "…";
        }
        return new ShownOrder(event.orderId(), event.kitchenId(), event.run(), event.sequence(), event.placedAt(),
                shownAt, event.customerId(), summary, source, Math.max(0, shownAt.toEpochMilli() - event.placedAt().toEpochMilli()),
                null);
    }
}
