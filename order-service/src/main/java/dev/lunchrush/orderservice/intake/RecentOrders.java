package dev.lunchrush.orderservice.intake;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.orderservice.OrderServiceProperties;

/**
 * The last accepted orders, for {@code GET /orders/{id}}. Bounded and kept as encoded bytes, so that
 * it weighs a fixed, small amount next to the feed whose memory the lesson measures.
 */
@Component
class RecentOrders {

    private final Map<String, byte[]> orders;

    RecentOrders(OrderServiceProperties properties) {
        int size = properties.recentOrders();
        this.orders = new LinkedHashMap<>(size * 4 / 3 + 1, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
                return size() > size;
            }
        };
    }

    synchronized void remember(OrderEvent event, byte[] encoded) {
        orders.put(event.orderId(), encoded);
    }

    void remember(OrderEvent event) {
        remember(event, OrderEventCodec.encode(event));
    }

    synchronized Optional<byte[]> find(String orderId) {
        return Optional.ofNullable(orders.get(orderId));
    }
}
