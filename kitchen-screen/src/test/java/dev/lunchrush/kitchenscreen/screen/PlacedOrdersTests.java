package dev.lunchrush.kitchenscreen.screen;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.web.client.RestClient;

import dev.lunchrush.kitchenscreen.KitchenScreenProperties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The order service is asked for its count while somebody looks at the screen's figures, not otherwise. */
class PlacedOrdersTests {

    @Test
    void asksTheOrderServiceOnlyWhileSomebodyLooks() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        HttpServer orderService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        orderService.createContext("/api/stats", exchange -> {
            byte[] body = ("{\"placed\":" + (41 + asked.incrementAndGet()) + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        orderService.start();
        try {
            KitchenScreenProperties properties = new KitchenScreenProperties("target/placed-orders-test",
                    new KitchenScreenProperties.OrderService(URI.create("http://127.0.0.1:" + orderService.getAddress().getPort()),
                            Duration.ofSeconds(1)),
                    new KitchenScreenProperties.Screen(Duration.ofSeconds(3), 20, 30, Duration.ofDays(2), 1_000_000,
                            "http://localhost:9411/zipkin/traces/"));
            PlacedOrders placed = new PlacedOrders(properties, JsonMapper.builder().build(), RestClient.builder());

            // looked at (the start counts as a look): asked at every tick
            placed.poll();
            assertThat(asked.get()).isEqualTo(1);
            assertThat(placed.current()).isEqualTo(new PlacedOrders.Placed(42, true));
            placed.poll();
            assertThat(placed.current()).isEqualTo(new PlacedOrders.Placed(43, true));

            // nobody looks for longer than the window: the ticks ask nothing
            placed.lookedAt(System.nanoTime() - PlacedOrders.DEMAND_WINDOW_NANOS - 1);
            placed.poll();
            placed.poll();
            assertThat(asked.get()).isEqualTo(2);

            // a look: the last known count at once, the next tick asks again
            assertThat(placed.current().placed()).isEqualTo(43);
            placed.poll();
            assertThat(asked.get()).isEqualTo(3);
            assertThat(placed.current().placed()).isEqualTo(44);
        }
        finally {
            orderService.stop(0);
        }
    }
    @Test
    void pollsOnlyWhileSomebodyLooksAndThenNothingTicks() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        HttpServer orderService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        orderService.createContext("/api/stats", exchange -> {
            asked.incrementAndGet();
            byte[] body = "{\"placed\":7}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        orderService.start();
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.initialize();
        try {
            KitchenScreenProperties properties = new KitchenScreenProperties("target/placed-orders-test",
                    new KitchenScreenProperties.OrderService(URI.create("http://127.0.0.1:" + orderService.getAddress().getPort()),
                            Duration.ofMillis(100)),
                    new KitchenScreenProperties.Screen(Duration.ofSeconds(3), 20, 30, Duration.ofDays(2), 1_000_000,
                            "http://localhost:9411/zipkin/traces/"));
            PlacedOrders placed = new PlacedOrders(properties, JsonMapper.builder().build(), RestClient.builder(), scheduler);

            // the start counts as a look: polled at every tick
            await().atMost(Duration.ofSeconds(5)).until(() -> asked.get() >= 2);
            assertThat(placed.polling()).isTrue();

            // nobody looks for longer than the window: the poll ends itself, nothing is asked any more
            placed.lookedAt(System.nanoTime() - PlacedOrders.DEMAND_WINDOW_NANOS - 1);
            await().atMost(Duration.ofSeconds(5)).until(() -> !placed.polling());
            int afterStop = asked.get();
            Thread.sleep(500);
            assertThat(asked.get()).isEqualTo(afterStop);

            // a look starts it again
            assertThat(placed.current().placed()).isEqualTo(7);
            assertThat(placed.polling()).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> asked.get() > afterStop);
        }
        finally {
            scheduler.shutdown();
            orderService.stop(0);
        }
    }

    @Test
    void keepsTheLastKnownCountWhileTheOrderServiceFailsOrIsDown() throws Exception {
        AtomicInteger status = new AtomicInteger(200);
        HttpServer orderService = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        orderService.createContext("/api/stats", exchange -> {
            byte[] body = "{\"placed\":5}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status.get(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        orderService.start();
        KitchenScreenProperties properties = new KitchenScreenProperties("target/placed-orders-test",
                new KitchenScreenProperties.OrderService(URI.create("http://127.0.0.1:" + orderService.getAddress().getPort()),
                        Duration.ofSeconds(1)),
                new KitchenScreenProperties.Screen(Duration.ofSeconds(3), 20, 30, Duration.ofDays(2), 1_000_000,
                        "http://localhost:9411/zipkin/traces/"));
        PlacedOrders placed = new PlacedOrders(properties, JsonMapper.builder().build(), RestClient.builder());
        try {
            placed.poll();
            assertThat(placed.current()).isEqualTo(new PlacedOrders.Placed(5, true));

            status.set(503);
            placed.poll();
            assertThat(placed.current()).isEqualTo(new PlacedOrders.Placed(5, false));
        }
        finally {
            orderService.stop(0);
        }
        placed.poll();
        assertThat(placed.current()).isEqualTo(new PlacedOrders.Placed(5, false));
    }
}
