package dev.lunchrush.bench;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * The orders every section posts: {@value #COUNT} sample orders of the menu (always the same seed) as request
 * bodies, handed out in turn, and the mean size of the events they become in the log, the size the brokers'
 * own tools are run with.
 */
final class SampleBodies {

    static final int COUNT = 5000;
    private static final long SEED = 20261129;

    private final List<byte[]> bodies;
    private final int recordSize;
    private final AtomicLong next = new AtomicLong();

    private SampleBodies(List<byte[]> bodies, int recordSize) {
        this.bodies = bodies;
        this.recordSize = recordSize;
    }

    static SampleBodies of(Menu menu) {
        List<byte[]> bodies = new ArrayList<>();
        SampleOrders samples = new SampleOrders(menu, new Random(SEED));
        double eventBytes = 0;
        for (int i = 0; i < COUNT; i++) {
            OrderRequest request = samples.next();
            bodies.add(ServiceClient.JSON.writeValueAsBytes(request));
            eventBytes += OrderEventCodec.encode(new OrderEvent("3f1c2a9e-5b7d-4e0f-9a1b-2c3d4e5f6a7b", Instant.now(),
                    request.kitchenId(), request.customerId(), request.items(), request.deliveryAddress(), request.notes(),
                    OrderEvent.ORIGIN_LIVE, "5b7d4e0f-1c2a-4e0f-9a1b-2c3d4e5f6a7b", 123456)).length;
        }
        return new SampleBodies(bodies, (int) Math.round(eventBytes / bodies.size()));
    }

    /** The bodies one after the other, from the first again after the last; shared by every section. */
    Supplier<byte[]> inTurn() {
        return () -> bodies.get((int) (next.getAndIncrement() % bodies.size()));
    }

    /** The mean size of an order event in the log, bytes. */
    int recordSize() {
        return recordSize;
    }
}
