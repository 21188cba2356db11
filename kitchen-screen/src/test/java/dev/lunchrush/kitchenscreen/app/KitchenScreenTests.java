package dev.lunchrush.kitchenscreen.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.RunningScreen;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.kitchenscreen.screen.MissingOrder;
import dev.lunchrush.kitchenscreen.screen.ShownOrder;
import dev.lunchrush.support.UnstorableOrderException;
import dev.lunchrush.testing.Browsers;
import dev.lunchrush.testing.ReaderInput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class KitchenScreenTests implements RunningScreen {

    @LocalServerPort
    int port;

    @Autowired
    ReaderInput input;

    @Autowired
    KitchenScreen screen;

    @Autowired
    JsonMapper json;

    private final String run = "run-" + UUID.randomUUID();

    @Test
    void readsBothQueuesDeadLettersPoisonAndFindsMissingOrders() throws Exception {
        JsonNode before = stats();
        long deadLetterQueueBefore = input.queueDepth(Topology.DEAD_LETTER_QUEUE);

        input.publish(Topology.SHARED_QUEUE, OrderEventCodec.encode(order("k1", 1)));
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order("k2", 2)));
        input.publish(Topology.KITCHEN_QUEUE, "{\"orderId\":\"broken\"".getBytes(StandardCharsets.UTF_8));
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order("k1", 4)));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode stats = stats();
            assertThat(received(stats, "shared-queue") - received(before, "shared-queue")).isEqualTo(1);
            assertThat(received(stats, "own-queue") - received(before, "own-queue")).isEqualTo(2);
            assertThat(stats.path("deadLettered").asLong() - before.path("deadLettered").asLong()).isEqualTo(1);
            assertThat(input.queueDepth(Topology.DEAD_LETTER_QUEUE) - deadLetterQueueBefore).isEqualTo(1);
        });
        // order 3 of the run never came: after the grace period it is listed as missing
        await().atMost(Duration.ofSeconds(10)).until(() -> screen.stats().missingOrders().contains(new MissingOrder(run, 3)));
        long missing = screen.stats().missing();
        long late = screen.stats().late();

        // it turns up late, and a redelivered order 1 is not shown twice
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order("k3", 3)));
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order("k1", 1)));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode stats = stats();
            assertThat(stats.path("duplicatesIgnored").asLong() - before.path("duplicatesIgnored").asLong()).isEqualTo(1);
            assertThat(stats.path("missing").asLong()).isEqualTo(missing - 1);
            assertThat(stats.path("late").asLong()).isEqualTo(late + 1);
            assertThat(stats.path("reached").asLong() - before.path("reached").asLong()).isEqualTo(4);
        });
        assertThat(screen.stats().missingOrders()).doesNotContain(new MissingOrder(run, 3));

        // one order by id: shown, with its source (one never shown, a 404, is ScreenControllerTests')
        JsonNode shown = json.readTree(get("/api/orders/" + order("k1", 4).orderId()));
        assertThat(shown.path("kitchenId").asString()).isEqualTo("k1");
        assertThat(shown.path("source").asString()).isEqualTo("own-queue");

        String metrics = get("/actuator/prometheus");
        assertThat(metrics).contains("orders_received_total{application=\"kitchen-screen\",source=\"own-queue\"}")
                .contains("orders_dead_lettered_total").contains("order_to_screen_latency_seconds_bucket");
    }

    /**
     * {@code orders_missing} is the screen's own count, {@code /api/stats}' {@code missing}: after a gap of two
     * orders in a run it is up by 2 and equal to the figure, and when one of them arrives late it goes down by
     * 1 while {@code orders_late_total} goes up by 1, both still equal to {@code /api/stats}.
     */
    @Test
    void theMissingGaugeEqualsTheStatsFigureAfterAGapAndWhenAnOrderArrivesLate() throws Exception {
        JsonNode before = stats();
        assertThat(metric("orders_missing")).isEqualTo(before.path("missing").asLong());

        // orders 2 and 3 of the run never come (for now)
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order("k1", 1)));
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order("k2", 4)));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode stats = stats();
            assertThat(stats.path("missing").asLong() - before.path("missing").asLong()).isEqualTo(2);
            assertThat(metric("orders_missing")).isEqualTo(stats.path("missing").asLong());
        });

        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order("k3", 2)));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode stats = stats();
            assertThat(stats.path("missing").asLong() - before.path("missing").asLong()).isEqualTo(1);
            assertThat(stats.path("late").asLong() - before.path("late").asLong()).isEqualTo(1);
            assertThat(metric("orders_missing")).isEqualTo(stats.path("missing").asLong());
            assertThat(metric("orders_late_total")).isEqualTo(stats.path("late").asLong());
        });
    }

    @Test
    void readsTheLogInOrderPerKitchenAndDeadLettersPoison() throws Exception {
        input.awaitLogAssignment();
        long receivedBefore = screen.stats().received().getOrDefault("kafka", 0L);
        String prefix = "kk-" + UUID.randomUUID().toString().substring(0, 6) + "-";
        List<String> kitchens = List.of(prefix + "a", prefix + "b", prefix + "c");
        byte[] poison = ("not json " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        for (int i = 1; i <= 60; i++) {
            OrderEvent event = order(kitchens.get(i % 3), i);
            input.sendToLog(event.kitchenId(), event);
            if (i == 30) {
                input.sendToLog(kitchens.get(0), poison);
            }
        }
        input.flushLog();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Map<String, List<ShownOrder>> columns = screen.columns();
            kitchens.forEach(kitchen -> assertThat(columns.get(kitchen)).hasSize(20));
        });
        Map<String, List<ShownOrder>> columns = screen.columns();
        for (String kitchen : kitchens) {
            List<Long> sequences = columns.get(kitchen).stream().map(ShownOrder::sequence).toList();
            // newest first, and each kitchen's orders in the order they were placed
            assertThat(sequences).isSortedAccordingTo((a, b) -> Long.compare(b, a));
        }
        assertThat(screen.stats().received().get("kafka") - receivedBefore).isEqualTo(60);
        assertThat(input.deadLetterTopicValues()).anySatisfy(value -> assertThat(value).isEqualTo(poison));
        assertThat(screen.stats().missingOrders()).noneMatch(missing -> missing.run().equals(run));
    }

    /**
     * Nothing the log can hold stalls the screen: an order whose customer id is beyond {@code OrderLimits} (and too
     * long for the journal's format, so that its write failed and the poll was retried every second for ever) is
     * refused by the codec and dead-lettered with its reason; the orders after it are shown.
     */
    @Test
    void deadLettersAnOrderBeyondTheLimitsFromTheLogWithItsReasonAndReadsOn() throws Exception {
        input.awaitLogAssignment();
        long before = screen.stats().received().getOrDefault("kafka", 0L);
        long deadBefore = screen.stats().deadLettered();
        String kitchen = "kb-" + UUID.randomUUID();
        OrderEvent beyond = withCustomer(order(kitchen, 2), "\u20AC".repeat(30_000));
        input.sendToLog(kitchen, order(kitchen, 1));
        input.sendToLog(kitchen, beyond);
        input.sendToLog(kitchen, order(kitchen, 3));
        input.flushLog();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(screen.stats().received().get("kafka") - before).isEqualTo(2);
            assertThat(screen.stats().deadLettered() - deadBefore).isEqualTo(1);
        });
        assertThat(screen.columns().get(kitchen)).extracting(ShownOrder::sequence).containsExactly(3L, 1L);
        assertThat(input.deadLetterTopicReasons()).anySatisfy((value, reason) -> {
            assertThat(value).contains(beyond.orderId());
            assertThat(reason).contains("customerId has 30000 characters, more than 64");
        });
    }

    /** The same on the screen's queue: dead-lettered with its reason, the rest shown, no requeue loop. */
    @Test
    void deadLettersAnOrderBeyondTheLimitsFromItsQueueWithItsReasonAndReadsOn() throws Exception {
        input.takeDeadLetterQueueReasons();
        long before = screen.stats().received().getOrDefault("own-queue", 0L);
        long deadBefore = screen.stats().deadLettered();
        String kitchen = "kb-" + UUID.randomUUID();
        OrderEvent beyond = withCustomer(order(kitchen, 2), "\u20AC".repeat(30_000));
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order(kitchen, 1)));
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(beyond));
        input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order(kitchen, 3)));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(screen.stats().received().get("own-queue") - before).isEqualTo(2);
            assertThat(screen.stats().deadLettered() - deadBefore).isEqualTo(1);
            assertThat(input.queueDepth(Topology.KITCHEN_QUEUE)).isZero();
        });
        Map<String, String> reasons = input.takeDeadLetterQueueReasons();
        assertThat(reasons).hasSize(1);
        assertThat(reasons).allSatisfy((body, reason) -> {
            assertThat(body).contains(beyond.orderId());
            assertThat(reason).contains("customerId has 30000 characters, more than 64");
        });
    }

    /**
     * An order the journal cannot take (handed to the screen directly: the codec refuses such a one from a broker)
     * is named for its source to dead-letter; the orders before it are shown, and the screen goes on.
     */
    @Test
    void namesTheOrderItsJournalCannotTakeAndShowsTheOnesBefore() {
        String kitchen = "kj-" + UUID.randomUUID();
        OrderEvent unwritable = withCustomer(order(kitchen, 2), "\u20AC".repeat(30_000));

        assertThatThrownBy(() -> screen.accept("kafka", List.of(order(kitchen, 1), unwritable, order(kitchen, 3))))
                .isInstanceOfSatisfying(UnstorableOrderException.class, ex -> assertThat(ex.index()).isEqualTo(1))
                .hasMessageContaining("order " + unwritable.orderId() + " cannot be shown");
        screen.accept("kafka", List.of(order(kitchen, 3)));
        assertThat(screen.columns().get(kitchen)).extracting(ShownOrder::sequence).containsExactly(3L, 1L);
    }

    private static OrderEvent withCustomer(OrderEvent event, String customerId) {
        return new OrderEvent(event.orderId(), event.placedAt(), event.kitchenId(), customerId, event.items(),
                event.deliveryAddress(), event.notes(), event.origin(), event.run(), event.sequence());
    }

    @Test
    void pageShowsAnOrderPlacedAfterItLoaded() {
        ChromeDriver driver = Browsers.headlessChromium();
        try {
            driver.get("http://127.0.0.1:" + port + "/");
            await().atMost(Duration.ofSeconds(15)).until(() -> "live".equals(driver.findElement(By.id("connection")).getText()));
            OrderEvent event = order("k-browser", 1);
            input.publish(Topology.KITCHEN_QUEUE, OrderEventCodec.encode(event));
            await().atMost(Duration.ofSeconds(15)).until(() -> !driver.findElements(
                    By.cssSelector("[data-order-id='" + event.orderId() + "']")).isEmpty());
            assertThat(driver.findElement(By.cssSelector(".kitchen[data-kitchen='k-browser']")).getText())
                    .contains(event.orderId());
            assertThat(Long.parseLong(driver.findElement(By.id("reached")).getText())).isPositive();
        }
        finally {
            driver.quit();
        }
    }

    private OrderEvent order(String kitchen, long sequence) {
        return new OrderEvent(run + "-" + sequence, Instant.now(), kitchen, "c-1042",
                List.of(new OrderItem("pad-thai", 2), new OrderItem("spring-rolls", 1)), "12 Mill Lane", "no peanuts",
                OrderEvent.ORIGIN_LIVE, run, sequence);
    }

    private JsonNode stats() throws Exception {
        return json.readTree(get("/api/stats"));
    }

    /** The kitchen screen's one sample of {@code name} in its Prometheus scrape. */
    private long metric(String name) throws Exception {
        String prefix = name + "{application=\"kitchen-screen\"} ";
        List<String> samples = get("/actuator/prometheus").lines().filter(line -> line.startsWith(prefix)).toList();
        assertThat(samples).as("samples of %s", name).hasSize(1);
        return (long) Double.parseDouble(samples.get(0).substring(prefix.length()));
    }

    private static long received(JsonNode stats, String source) {
        return stats.path("received").path(source).asLong();
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
