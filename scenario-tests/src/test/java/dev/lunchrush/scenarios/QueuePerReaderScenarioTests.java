package dev.lunchrush.scenarios;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Act 2, {@code queue-per-reader}: a fanout exchange with a durable queue per reader. Every reader gets
 * every order; but a reader that subscribes later starts empty (a queue holds only what was routed to it
 * after it was bound: no history), and a slow reader's backlog piles up inside RabbitMQ.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueuePerReaderScenarioTests {

    private static final Logger log = LoggerFactory.getLogger(QueuePerReaderScenarioTests.class);

    @RegisterExtension
    static final Stack stack = new Stack("order-service", "kitchen-screen", "analytics-dashboard")
            .inAct("{\"act\":\"queue-per-reader\"}");

    private static Connection connection;
    private static Supplier<String> bodies;
    /** Orders placed so far, as the readers should count them. */
    private static long placed;

    @BeforeAll
    static void prepare() throws Exception {
        // fast enough that the first two checks do not wait on the job
        stack.dashboardCapacity(5_000);
        bodies = stack.orderBodies(42);
        RabbitBroker broker = TestBrokers.rabbit();
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(broker.host());
        factory.setPort(broker.port());
        factory.setUsername(broker.username());
        factory.setPassword(broker.password());
        factory.setVirtualHost(broker.virtualHost());
        connection = factory.newConnection("queue-per-reader-scenario");
    }

    @AfterAll
    static void disconnect() throws Exception {
        if (connection != null) {
            connection.close();
        }
    }

    @Test
    @Order(1)
    void everyReaderGetsEveryOrder() {
        int orders = 300;
        List<String> ids = place(orders);
        assertThat(ids).hasSize(orders).doesNotHaveDuplicates();
        placed += orders;

        awaitReaders(placed);
        // and no more than that, a moment later: nothing was delivered twice or shared out
        await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(received("kitchen-screen")).isEqualTo(placed);
            assertThat(received("analytics-dashboard")).isEqualTo(placed);
        });
    }

    @Test
    @Order(2)
    void aReaderThatSubscribesLaterStartsEmptyAndSeesOnlyWhatCameAfter() throws Exception {
        // the earlier orders are in the readers' counts: they are gone from RabbitMQ, there is no history
        assertThat(placed).isPositive();
        String lateQueue = "orders.late-reader-" + UUID.randomUUID().toString().substring(0, 8);
        try (Channel channel = connection.createChannel()) {
            channel.exchangeDeclarePassive(Topology.FANOUT_EXCHANGE);
            channel.queueDeclare(lateQueue, false, false, true, null);
            channel.queueBind(lateQueue, Topology.FANOUT_EXCHANGE, "");
            assertThat(channel.queueDeclarePassive(lateQueue).getMessageCount())
                    .as("a reader added after %d orders starts with nothing", placed).isZero();

            int later = 120;
            List<String> ids = place(later);
            placed += later;

            // 201 comes after the broker's confirm, so every later order is routed already
            assertThat(channel.queueDeclarePassive(lateQueue).getMessageCount()).isEqualTo(later);
            Set<String> seen = new HashSet<>();
            GetResponse message;
            while ((message = channel.basicGet(lateQueue, true)) != null) {
                seen.add(OrderEventCodec.decode(message.getBody()).orderId());
            }
            assertThat(seen).as("exactly the orders placed after it subscribed").containsExactlyInAnyOrderElementsOf(ids);
            awaitReaders(placed);
            channel.queueDelete(lateQueue);
        }
    }

    @Test
    @Order(3)
    void aSlowReadersBacklogPilesUpInsideRabbitMq() throws Exception {
        int capacity = 20;
        stack.dashboardCapacity(capacity);
        long dashboardBefore = received("analytics-dashboard");
        int orders = 800;
        long start = System.nanoTime();
        List<Long> depths = new ArrayList<>();
        try (Channel channel = connection.createChannel()) {
            for (int round = 0; round < 4; round++) {
                place(orders / 4);
                placed += orders / 4;
                depths.add((long) channel.queueDeclarePassive(Topology.ANALYTICS_QUEUE).getMessageCount());
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            // hold the job nearly still, so that what RabbitMQ holds stays put while it is read from outside
            stack.dashboardCapacity(1);
            long read = received("analytics-dashboard") - dashboardBefore;
            long depth = channel.queueDeclarePassive(Topology.ANALYTICS_QUEUE).getMessageCount();
            long kitchenDepth = channel.queueDeclarePassive(Topology.KITCHEN_QUEUE).getMessageCount();
            log.info("{} orders in {} s; the dashboard (capacity {}/s) read {}; its queue's ready depth after each "
                    + "quarter {}, then {}; the kitchen's {}", orders, Math.round(seconds * 10) / 10.0, capacity, read,
                    depths, depth, kitchenDepth);

            assertThat(depths).as("the slow reader's queue grows with every batch").isSortedAccordingTo(Long::compare);
            assertThat(depths.get(3)).isGreaterThan(depths.get(0));
            assertThat(read).as("the dashboard reads at its capacity").isLessThanOrEqualTo(Math.round(capacity * (seconds + 2)) + 50);
            // ready + unacknowledged + read = orders, exactly; unacknowledged is at most the consumer's prefetch
            // (100) and the batch being processed (50); the job reads about 1/s more while this is looked at
            assertThat(depth).as("what the slow reader has not read waits in RabbitMQ").isBetween(orders - read - 155, orders - read);

            // and the broker holds it, in its memory or on its disk: the management API shows the bytes
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                JsonNode queue = managementQueue(Topology.ANALYTICS_QUEUE);
                long ready = queue.path("messages_ready").asLong();
                log.info("RabbitMQ holds {} ready messages, {} bytes, queue process memory {} bytes for the dashboard",
                        ready, queue.path("message_bytes_ready").asLong(), queue.path("memory").asLong());
                // the management API's figures are statistics refreshed every few seconds (and later under
                // load), so they are held to the broker's own count loosely; the exact count is asserted above
                assertThat(ready).isGreaterThanOrEqualTo(depth / 2);
                assertThat(queue.path("message_bytes_ready").asLong()).as("bytes RabbitMQ holds for the slow reader")
                        .isGreaterThanOrEqualTo(ready * 500);
                assertThat(queue.path("memory").asLong()).isPositive();
            });
        }
        stack.dashboardCapacity(5_000);
        // the fast reader is not held up by the slow one
        awaitReader("kitchen-screen", placed);
    }

    private static JsonNode managementQueue(String queue) throws Exception {
        RabbitBroker broker = TestBrokers.rabbit();
        String vhost = java.net.URLEncoder.encode(broker.virtualHost(), java.nio.charset.StandardCharsets.UTF_8);
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                broker.managementUri().resolve("/api/queues/" + vhost + "/" + queue))
                .header("Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString(
                        (broker.username() + ":" + broker.password()).getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(10)).GET().build();
        HttpResponse<String> response = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build()
                .send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return Stack.JSON.readTree(response.body());
    }

    /** Places {@code count} orders, eight at a time; returns their ids. Every one must be 201. */
    private static List<String> place(int count) {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String body = bodies.get();
                futures.add(pool.submit(() -> {
                    HttpResponse<String> response = stack.post("order-service", "/orders", body, Map.of());
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
                    return Stack.JSON.readTree(response.body()).path("orderId").asString();
                }));
            }
            List<String> ids = new ArrayList<>();
            for (Future<String> future : futures) {
                ids.add(future.get());
            }
            return ids;
        }
        catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
        finally {
            pool.shutdownNow();
        }
    }

    private static void awaitReaders(long expected) {
        awaitReader("kitchen-screen", expected);
        awaitReader("analytics-dashboard", expected);
    }

    private static void awaitReader(String reader, long expected) {
        await(reader + " has all " + expected + " orders").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> received(reader) == expected);
    }

    /** Orders the reader received from its own queue. */
    private static long received(String reader) {
        return stack.getJson(reader, "/api/stats").path("received").path("own-queue").asLong();
    }
}
