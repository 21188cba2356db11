package dev.lunchrush.scenarios;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderRequest;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.load.menu.SampleOrders;

/**
 * Orders for the scenarios: realistic random requests for the running order service's menu, placed
 * through the real {@code POST /orders} at a given pace, and the day report that a set of orders
 * must give, computed here independently of every service.
 */
public final class Orders {

    private Orders() {
    }

    /** An order that got its 201: what was sent and what the order service answered. */
    public record Placed(OrderRequest request, String orderId, Instant placedAt, String kitchenId, long sequence) {
    }

    public static Menu menu(Stack stack) {
        return Stack.JSON.readValue(stack.get("order-service", "/menu").body(), Menu.class);
    }

    public static List<OrderRequest> random(Menu menu, int count, long seed) {
        SampleOrders samples = new SampleOrders(menu, new SplittableRandom(seed));
        List<OrderRequest> requests = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            requests.add(samples.next());
        }
        return requests;
    }

    /** Places one order; anything but a 201 fails with what was sent and what came back. */
    public static Placed place(Stack stack, OrderRequest request) {
        String body = Stack.JSON.writeValueAsString(request);
        HttpResponse<String> response = stack.post("order-service", "/orders", body, Map.of());
        if (response.statusCode() != 201) {
            throw new AssertionError("POST /orders answered " + response.statusCode() + " " + response.body()
                    + " to " + body);
        }
        JsonNode accepted = Stack.JSON.readTree(response.body());
        return new Placed(request, accepted.path("orderId").asString(), Instant.parse(accepted.path("placedAt").asString()),
                accepted.path("kitchenId").asString(), accepted.path("sequence").asLong());
    }

    /**
     * Places the orders at about {@code perSecond} with up to {@code threads} in flight, and returns
     * them in the order they were sent. Every one must get its 201.
     */
    static List<Placed> place(Stack stack, List<OrderRequest> requests, double perSecond, int threads) {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Placed>> futures = new ArrayList<>(requests.size());
            long start = System.nanoTime();
            long intervalNanos = (long) (1_000_000_000L / perSecond);
            for (int i = 0; i < requests.size(); i++) {
                long due = start + i * intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                OrderRequest request = requests.get(i);
                futures.add(executor.submit(() -> place(stack, request)));
            }
            List<Placed> placed = new ArrayList<>(futures.size());
            for (Future<Placed> future : futures) {
                placed.add(future.get(60, TimeUnit.SECONDS));
            }
            return placed;
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof AssertionError error) {
                throw error;
            }
            throw new IllegalStateException(ex.getCause());
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
        finally {
            executor.shutdownNow();
        }
    }

    /**
     * Places each kitchen's orders one after the other (the next only after the 201 of the one
     * before), the kitchens in parallel, so "the order they were placed in" is well defined per
     * kitchen. Returns each kitchen's orders in that order.
     */
    static Map<String, List<Placed>> placePerKitchenInSequence(Stack stack, List<OrderRequest> requests) {
        Map<String, List<OrderRequest>> byKitchen = new TreeMap<>();
        requests.forEach(request -> byKitchen.computeIfAbsent(request.kitchenId(), k -> new ArrayList<>()).add(request));
        ExecutorService executor = Executors.newFixedThreadPool(byKitchen.size());
        try {
            Map<String, Future<List<Placed>>> futures = new TreeMap<>();
            byKitchen.forEach((kitchen, list) -> futures.put(kitchen, executor.submit(() -> {
                List<Placed> placed = new ArrayList<>();
                list.forEach(request -> placed.add(place(stack, request)));
                return placed;
            })));
            Map<String, List<Placed>> placed = new TreeMap<>();
            for (Map.Entry<String, Future<List<Placed>>> entry : futures.entrySet()) {
                placed.put(entry.getKey(), entry.getValue().get(120, TimeUnit.SECONDS));
            }
            return placed;
        }
        catch (ExecutionException ex) {
            if (ex.getCause() instanceof AssertionError error) {
                throw error;
            }
            throw new IllegalStateException(ex.getCause());
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
        finally {
            executor.shutdownNow();
        }
    }

    /**
     * A day's numbers as the dashboard and the replayer report them: total, orders per kitchen, orders
     * per local hour ("00".."23", hours without orders left out), portions per dish.
     */
    record Day(long totalOrders, Map<String, Long> ordersPerKitchen, Map<String, Long> ordersPerHour,
            Map<String, Long> portionsPerDish) {

        static Day empty() {
            return new Day(0, new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
        }

        Day add(String kitchenId, Instant placedAt, List<OrderItem> items, ZoneId zone) {
            Map<String, Long> kitchens = new TreeMap<>(ordersPerKitchen);
            Map<String, Long> hours = new TreeMap<>(ordersPerHour);
            Map<String, Long> dishes = new TreeMap<>(portionsPerDish);
            kitchens.merge(kitchenId, 1L, Long::sum);
            hours.merge("%02d".formatted(placedAt.atZone(zone).getHour()), 1L, Long::sum);
            items.forEach(item -> dishes.merge(item.dish(), (long) item.quantity(), Long::sum));
            return new Day(totalOrders + 1, kitchens, hours, dishes);
        }

        /** The same numbers read from a report's JSON ({@code totalOrders}, {@code ordersPerKitchen}, …). */
        static Day of(JsonNode report) {
            return new Day(report.path("totalOrders").asLong(-1), counts(report.path("ordersPerKitchen")),
                    counts(report.path("ordersPerHour")), counts(report.path("portionsPerDish")));
        }

        private static Map<String, Long> counts(JsonNode node) {
            Map<String, Long> counts = new TreeMap<>();
            node.properties().forEach(entry -> {
                long n = entry.getValue().asLong();
                // a report may list every hour or kitchen with 0; a missing key and a 0 say the same
                if (n != 0) {
                    counts.put(entry.getKey(), n);
                }
            });
            return Collections.unmodifiableMap(counts);
        }
    }

    /** What each local day of {@code zone} must show for these orders. */
    static Map<LocalDate, Day> days(Collection<Placed> orders, ZoneId zone) {
        Map<LocalDate, Day> days = new TreeMap<>();
        for (Placed order : orders) {
            days.merge(order.placedAt().atZone(zone).toLocalDate(),
                    Day.empty().add(order.kitchenId(), order.placedAt(), order.request().items(), zone), Orders::sum);
        }
        return days;
    }

    static Day sum(Day a, Day b) {
        Map<String, Long> kitchens = new TreeMap<>(a.ordersPerKitchen());
        Map<String, Long> hours = new TreeMap<>(a.ordersPerHour());
        Map<String, Long> dishes = new TreeMap<>(a.portionsPerDish());
        b.ordersPerKitchen().forEach((k, n) -> kitchens.merge(k, n, Long::sum));
        b.ordersPerHour().forEach((k, n) -> hours.merge(k, n, Long::sum));
        b.portionsPerDish().forEach((k, n) -> dishes.merge(k, n, Long::sum));
        return new Day(a.totalOrders() + b.totalOrders(), kitchens, hours, dishes);
    }
}
