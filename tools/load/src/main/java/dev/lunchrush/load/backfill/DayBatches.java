package dev.lunchrush.load.backfill;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.random.RandomGenerator;

import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;

/**
 * One day of a backfill as it is sent, batch after batch: the day's placement times ({@link DayShape}) and its
 * orders ({@link SampleOrders} over the menu), both drawn from the run's generator for that day only, cut into
 * batches of the run's size, each with its {@code Idempotency-Key}. Built lazily, a batch at a time: a day of a
 * million orders is never in memory whole.
 */
final class DayBatches implements Iterator<DayBatches.Batch> {

    /**
     * @param index the batch's place in its day, from 0
     * @param orders the request body: the orders as {@code POST /admin/orders/import} takes them
     * @param placedAt the orders' times, in the same order
     */
    record Batch(LocalDate day, int index, String idempotencyKey, List<Map<String, Object>> orders, List<Instant> placedAt) {
    }

    private final BackfillRun run;
    private final LocalDate day;
    private final List<Instant> placements;
    private final SampleOrders orders;
    private int next;

    DayBatches(Menu menu, BackfillRun run, LocalDate day) {
        this.run = run;
        this.day = day;
        RandomGenerator random = run.random(day);
        this.placements = DayShape.placements(day, run.zone(), run.ordersPerDay(), random);
        this.orders = new SampleOrders(menu, random);
    }

    /** How many batches the day has. */
    int count() {
        return (placements.size() + run.batchSize() - 1) / run.batchSize();
    }

    @Override
    public boolean hasNext() {
        return next < count();
    }

    @Override
    public Batch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the day " + day + " has " + count() + " batches");
        }
        int index = next++;
        List<Instant> times = placements.subList(index * run.batchSize(),
                Math.min(placements.size(), (index + 1) * run.batchSize()));
        List<Map<String, Object>> body = new ArrayList<>(times.size());
        for (Instant placedAt : times) {
            body.add(importedOrder(placedAt, orders.next()));
        }
        return new Batch(day, index, run.idempotencyKey(day, index), body, List.copyOf(times));
    }

    static Map<String, Object> importedOrder(Instant placedAt, OrderRequest request) {
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("placedAt", placedAt.toString());
        order.put("kitchenId", request.kitchenId());
        order.put("customerId", request.customerId());
        order.put("items", request.items());
        order.put("deliveryAddress", request.deliveryAddress());
        order.put("notes", request.notes());
        return order;
    }
}
