package dev.lunchrush.orderservice.intake;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.orderservice.OrderServiceProperties;

/**
 * The last accepted orders, for {@code GET /orders/{id}}. Bounded, so that it weighs a fixed, small amount
 * next to the feed whose memory the lesson measures: an order is kept as the bytes it was published as
 * (queue acts), or as its event, encoded only when somebody asks for it (the log act, where the producer
 * encodes it for the log itself; about the same size either way).
 */
@Component
class RecentOrders {

    private final Map<String, Object> orders;

    RecentOrders(OrderServiceProperties properties) {
        int size = properties.recentOrders();
        this.orders = new LinkedHashMap<>(size * 4 / 3 + 1, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
                return size() > size;
            }
        };
    }

    synchronized void remember(OrderEvent event, byte[] encoded) {
        orders.put(event.orderId(), encoded);
    }

    synchronized void remember(OrderEvent event) {
        orders.put(event.orderId(), event);
    }

    Optional<byte[]> find(String orderId) {
        Object order;
        synchronized (this) {
            order = orders.get(orderId);
        }
        return Optional.ofNullable(order instanceof OrderEvent event ? OrderEventCodec.encode(event) : (byte[]) order);
    }
}
