package dev.lunchrush.scenarios;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.Topology;
import dev.lunchrush.load.menu.Menu;
import dev.lunchrush.testing.Browsers;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 1, the shared work queue, on real RabbitMQ with the packaged services: orders placed through
 * {@code POST /orders} are split between the kitchen screen and the analytics dashboard, each getting
 * about half, together every order exactly once. The kitchen screen shows the others as missing.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SharedQueueScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(SharedQueueScenarioTests.class);

    private static final int ORDERS = 400;
    // The dashboard processes 250 orders/s; at 100/s in, it gets about 50/s, far below its capacity, so
    // the split is the queue's round robin and not one reader's slowness.
    private static final double ORDERS_PER_SECOND = 100;

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            // the screen's columns and missing list hold every order of the test, so that the test can
            // see exactly which orders the screen got and which it counts as missing
            .environment("kitchen-screen", Map.of("LUNCHRUSH_SCREEN_RECENT_PER_KITCHEN", "2000",
                    "LUNCHRUSH_SCREEN_MISSING_LISTED", "2000"))
            .inAct("{\"act\":\"shared-queue\"}");

    @Test
    @Order(1)
    void eachReaderGetsAboutHalfAndTogetherEveryOrderExactlyOnce() throws Exception {
        Menu menu = Orders.menu(stack);
        List<Orders.Placed> placed = Orders.place(stack, Orders.random(menu, ORDERS, 20261126L), ORDERS_PER_SECOND, 4);
        assertThat(placed).hasSize(ORDERS);
        assertThat(placed.stream().map(Orders.Placed::orderId).distinct()).hasSize(ORDERS);
        String run = stack.getJson("order-service", "/api/stats").path("run").asString();

        // every order reached one reader, and the counts then stay put: nothing comes twice later
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> kitchenReceived() + dashboardReceived() >= ORDERS);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250))
                .until(() -> kitchenReceived() + dashboardReceived() == ORDERS);
        assertThat(messagesIn(Topology.SHARED_QUEUE)).as("orders left on the queue").isZero();
        assertThat(messagesIn(Topology.DEAD_LETTER_QUEUE)).as("orders dead-lettered").isZero();

        long kitchen = kitchenReceived();
        long dashboard = dashboardReceived();
        log.info("{} orders on the shared queue: kitchen screen {}, analytics dashboard {}", ORDERS, kitchen, dashboard);
        assertThat(kitchen).as("kitchen screen's share of %d", ORDERS).isBetween(ORDERS * 40L / 100, ORDERS * 60L / 100);
        assertThat(dashboard).as("dashboard's share of %d", ORDERS).isBetween(ORDERS * 40L / 100, ORDERS * 60L / 100);
        assertThat(kitchen + dashboard).isEqualTo(ORDERS);

        // The kitchen screen by order id: each shown once, each one of ours.
        List<JsonNode> shown = shownOnKitchenScreen();
        List<String> shownIds = shown.stream().map(node -> node.path("orderId").asString()).toList();
        assertThat(shownIds).doesNotHaveDuplicates().hasSize((int) kitchen);
        Map<String, Orders.Placed> byId = placed.stream().collect(Collectors.toMap(Orders.Placed::orderId, p -> p));
        assertThat(byId.keySet()).containsAll(shownIds);
        JsonNode kitchenStats = stack.getJson("kitchen-screen", "/api/stats");
        assertThat(kitchenStats.path("duplicatesIgnored").asLong()).isZero();

        // The dashboard by its numbers: exactly the orders the kitchen did not get, per kitchen, per hour
        // and per dish, so no order counted twice and none lost between the two readers.
        Set<String> kitchenSet = new HashSet<>(shownIds);
        List<Orders.Placed> notOnKitchen = placed.stream().filter(p -> !kitchenSet.contains(p.orderId())).toList();
        assertThat(notOnKitchen).hasSize((int) dashboard);
        Orders.days(notOnKitchen, ZoneOffset.UTC).forEach((date, expected) ->
                assertThat(dashboardDay(date)).as("dashboard's numbers for %s", date).isEqualTo(expected));

        // The kitchen screen names what it missed: every sequence number below the highest it saw that
        // went to the dashboard instead (later ones it cannot know about).
        long highestShown = shown.stream().mapToLong(node -> node.path("sequence").asLong()).max().orElseThrow();
        Set<Long> expectedMissing = notOnKitchen.stream().map(Orders.Placed::sequence)
                .filter(sequence -> sequence < highestShown).collect(Collectors.toCollection(TreeSet::new));
        assertThat(expectedMissing.size()).isGreaterThan(ORDERS / 4);
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250))
                .until(() -> stack.getJson("kitchen-screen", "/api/stats").path("missing").asLong() == expectedMissing.size());
        Set<Long> listedMissing = new TreeSet<>();
        stack.getJson("kitchen-screen", "/api/stats").path("missingOrders").values().forEach(node -> {
            assertThat(node.path("run").asString()).isEqualTo(run);
            listedMissing.add(node.path("sequence").asLong());
        });
        assertThat(listedMissing).isEqualTo(expectedMissing);
    }

    @Test
    @Order(2)
    void theKitchenScreenPageShowsAnOrderPlacedAfterItLoadedWithoutAReload() {
        Menu menu = Orders.menu(stack);
        WebDriver driver = Browsers.headlessChromium();
        try {
            driver.get(stack.uri("kitchen-screen", "/").toString());
            await().atMost(Duration.ofSeconds(20)).until(() -> "live".equals(driver.findElement(By.id("connection")).getText()));
            // a marker that a reload would wipe out
            ((JavascriptExecutor) driver).executeScript("window.loadedOnce = 'yes';");

            // On the shared queue an order goes to either reader: place orders until the kitchen got one.
            Orders.Placed onKitchen = null;
            List<Orders.Placed> elsewhere = new ArrayList<>();
            List<dev.lunchrush.events.OrderRequest> requests = Orders.random(menu, 10, 7L);
            for (int i = 0; i < requests.size() && onKitchen == null; i++) {
                long before = kitchenReceived() + dashboardReceived();
                Orders.Placed order = Orders.place(stack, requests.get(i));
                await().atMost(Duration.ofSeconds(20)).until(() -> kitchenReceived() + dashboardReceived() > before);
                if (shownOnKitchenScreen().stream().anyMatch(node -> order.orderId().equals(node.path("orderId").asString()))) {
                    onKitchen = order;
                }
                else {
                    elsewhere.add(order);
                }
            }
            assertThat(onKitchen).as("one of 10 orders on the kitchen screen").isNotNull();

            String cardSelector = ".order[data-order-id='" + onKitchen.orderId() + "']";
            await().atMost(Duration.ofSeconds(10)).until(() -> !driver.findElements(By.cssSelector(cardSelector)).isEmpty());
            assertThat(driver.findElement(By.cssSelector(cardSelector)).getText())
                    .contains("#" + onKitchen.sequence()).contains(onKitchen.orderId());
            assertThat(driver.findElement(By.cssSelector(".kitchen[data-kitchen='" + onKitchen.kitchenId() + "']"))
                    .findElements(By.cssSelector(cardSelector))).hasSize(1);
            long reached = stack.getJson("kitchen-screen", "/api/stats").path("reached").asLong();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> driver.findElement(By.id("reached")).getText().equals(String.valueOf(reached)));
            for (Orders.Placed other : elsewhere) {
                assertThat(driver.findElements(By.cssSelector(".order[data-order-id='" + other.orderId() + "']")))
                        .as("an order the dashboard took is not on the kitchen screen").isEmpty();
            }
            assertThat(((JavascriptExecutor) driver).executeScript("return window.loadedOnce;")).isEqualTo("yes");
        }
        finally {
            driver.quit();
        }
    }

    private static long kitchenReceived() {
        return stack.getJson("kitchen-screen", "/api/stats").path("received").path("shared-queue").asLong();
    }

    private static long dashboardReceived() {
        return stack.getJson("analytics-dashboard", "/api/stats").path("received").path("shared-queue").asLong();
    }

    private static List<JsonNode> shownOnKitchenScreen() {
        List<JsonNode> shown = new ArrayList<>();
        stack.getJson("kitchen-screen", "/api/kitchens").values().forEach(column -> column.values().forEach(shown::add));
        return shown;
    }

    private static Orders.Day dashboardDay(LocalDate date) {
        return Orders.Day.of(stack.getJson("analytics-dashboard", "/api/days/" + date + "?zone=UTC"));
    }

    /** Ready messages on a queue, asked of the broker itself (the management API's figures lag). */
    private static long messagesIn(String queue) throws Exception {
        RabbitBroker broker = TestBrokers.rabbit();
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(broker.host());
        factory.setPort(broker.port());
        factory.setUsername(broker.username());
        factory.setPassword(broker.password());
        factory.setVirtualHost(broker.virtualHost());
        try (Connection connection = factory.newConnection(); Channel channel = connection.createChannel()) {
            return channel.queueDeclarePassive(queue).getMessageCount();
        }
    }
}
