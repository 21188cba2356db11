package dev.lunchrush.load.backfill;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;
import dev.lunchrush.localstack.access.DemoException;
import dev.lunchrush.localstack.access.ServiceClient;

/**
 * Before a backfill writes anything: the log's copy of the run, and a margin, must fit in every log directory that
 * holds a replica of the orders topic, as the order service reports them ({@code GET /admin/orders/import/room}).
 * The orders go to the partitions by kitchen, not evenly, so each directory is asked to hold the whole run: exact
 * for one broker, and for a cluster whose every broker holds every partition. When the service cannot tell (Kafka
 * away, no answer), the backfill goes on and says so: its batches then meet the same trouble and say it.
 */
final class LogRoomCheck {

    static final String PATH = "/admin/orders/import/room";

    /** The log needs its segments' indexes, the partitions are uneven, the disk is shared: half as much again. */
    static final double MARGIN = 1.5;

    /** Kafka's bytes per record beside its value: the record's own header, its key (the kitchen), the batch's share. */
    static final int RECORD_OVERHEAD = 64;

    /** Orders drawn to learn an order's size in the log. */
    static final int SAMPLE = 1000;

    private LogRoomCheck() {
    }

    /**
     * What one of the run's orders takes in the log: its event as the order service writes it, and the record's
     * overhead, averaged over {@link #SAMPLE} orders drawn from the menu as the run draws them (no day's placements
     * are made for it).
     */
    static long bytesPerOrder(Menu menu, long seed) {
        SampleOrders orders = new SampleOrders(menu, new SplittableRandom(seed));
        Instant placedAt = Instant.now();
        long bytes = 0;
        for (int i = 0; i < SAMPLE; i++) {
            OrderRequest order = orders.next();
            bytes += OrderEventCodec.encode(new OrderEvent(UUID.randomUUID().toString(), placedAt, order.kitchenId(),
                    order.customerId(), order.items(), order.deliveryAddress(), order.notes(), OrderEvent.ORIGIN_IMPORT,
                    "import", 0)).length;
        }
        return bytes / SAMPLE + RECORD_OVERHEAD;
    }

    /**
     * Refuses the run ({@link DemoException}, nothing written) when a log directory has less room than it needs; says
     * what was found either way.
     */
    static void require(ServiceClient orderService, long orders, long bytesPerOrder, PrintWriter out) {
        long needed = (long) (orders * (double) bytesPerOrder * MARGIN);
        JsonNode room;
        try {
            room = orderService.exchange("GET", PATH, null, true);
        }
        catch (DemoException ex) {
            if (ex.status() == 401 || ex.status() == 403) {
                throw ex;
            }
            out.printf("The room on the log's disks was not checked: %s%n", ex.getMessage());
            out.flush();
            return;
        }
        long least = Long.MAX_VALUE;
        for (JsonNode dir : room.path("logDirs")) {
            long usable = dir.path("usableBytes").asLong(Long.MAX_VALUE);
            if (usable < needed) {
                throw new DemoException(("broker %d's log directory %s has %s free; %,d orders of about %d B need "
                        + "about %s there (the log's copy and a margin): nothing was written. Free some space, or "
                        + "backfill fewer days or orders").formatted(dir.path("broker").asInt(), dir.path("path").asString(),
                                size(usable), orders, bytesPerOrder, size(needed)));
            }
            least = Math.min(least, usable);
        }
        if (least == Long.MAX_VALUE) {
            out.printf("The room on the log's disks was not checked: the order service named no log directory%n");
        }
        else {
            out.printf("The log's disks: %s free at least; this run needs about %s (%d B an order, and a margin)%n",
                    size(least), size(needed), bytesPerOrder);
        }
        out.flush();
    }

    static String size(long bytes) {
        return bytes >= 1e9 ? "%,.1f GB".formatted(bytes / 1e9) : "%,.1f MB".formatted(bytes / 1e6);
    }
}
