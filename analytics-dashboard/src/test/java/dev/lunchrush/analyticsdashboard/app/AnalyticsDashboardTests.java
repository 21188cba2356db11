package dev.lunchrush.analyticsdashboard.app;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.openqa.selenium.chrome.ChromeDriver;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.analyticsdashboard.AnalyticsDashboardApplication;
import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.DayReport;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderLimits;
import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.Browsers;
import dev.lunchrush.testing.FreePorts;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.ReaderInput;
import dev.lunchrush.testing.ServiceTestSetup;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "lunchrush.analytics.capacity-per-second=5000")
@Import(ReaderInput.class)
class AnalyticsDashboardTests {

    private static final String ADMIN_PASSWORD = "test-admin-secret";

    private static final Logger log = LoggerFactory.getLogger(AnalyticsDashboardTests.class);

    /** Never the order service of someone else's run: a feed of the test's own. */
    private static final FakeFeed FEED = new FakeFeed();

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "analytics-dashboard-test");
        registry.add("lunchrush.order-service.url", FEED::url);
    }

    @LocalServerPort
    int port;

    @Autowired
    ReaderInput input;

    @Autowired
    OrderProcessor processor;

    @Autowired
    Aggregates aggregates;

    @Autowired
    JsonMapper json;

    @Autowired
    KafkaTemplate<Object, Object> kafka;

    @Autowired
    DataSource dataSource;

    private final String run = "run-" + UUID.randomUUID();

    @Test
    void readsBothQueuesAndDeadLettersPoison() throws Exception {
        JsonNode before = json.readTree(get("/api/stats"));
        long deadLetterQueueBefore = input.queueDepth(Topology.DEAD_LETTER_QUEUE);
        String kitchen = "kq-" + UUID.randomUUID();

        input.publish(Topology.SHARED_QUEUE, OrderEventCodec.encode(order(kitchen, 1, Instant.now())));
        input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(order(kitchen, 2, Instant.now())));
        input.publish(Topology.ANALYTICS_QUEUE, "[1, 2, 3]".getBytes(StandardCharsets.UTF_8));
        input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(order(kitchen, 3, Instant.now())));

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            JsonNode stats = json.readTree(get("/api/stats"));
            assertThat(received(stats, "shared-queue") - received(before, "shared-queue")).isEqualTo(1);
            assertThat(received(stats, "own-queue") - received(before, "own-queue")).isEqualTo(2);
            assertThat(stats.path("deadLettered").asLong() - before.path("deadLettered").asLong()).isEqualTo(1);
            assertThat(input.queueDepth(Topology.DEAD_LETTER_QUEUE) - deadLetterQueueBefore).isEqualTo(1);
        });
        DayReport today = aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC);
        assertThat(today.ordersPerKitchen()).containsEntry(kitchen, 3L);
        assertThat(today.portionsPerDish().get("pad-thai")).isGreaterThanOrEqualTo(6L);
        assertThat(get("/actuator/prometheus"))
                .contains("orders_received_total{application=\"analytics-dashboard\",source=\"own-queue\"}")
                .contains("orders_dead_lettered_total").contains("analytics_capacity_events_per_second");
    }

    @Test
    void readsTheLogAndDeadLettersPoison() {
        input.awaitLogAssignment();
        long before = processor.received().getOrDefault("kafka", 0L);
        String prefix = "kk-" + UUID.randomUUID().toString().substring(0, 6) + "-";
        byte[] poison = ("{\"orderId\": 42, " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
        for (int i = 1; i <= 30; i++) {
            OrderEvent event = order(prefix + (i % 3), i, Instant.now());
            input.sendToLog(event.kitchenId(), event);
            if (i == 15) {
                input.sendToLog(event.kitchenId(), poison);
            }
        }
        input.flushLog();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(processor.received().get("kafka") - before).isEqualTo(30));
        DayReport today = aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC);
        for (int k = 0; k < 3; k++) {
            assertThat(today.ordersPerKitchen()).containsEntry(prefix + k, 10L);
        }
        assertThat(input.deadLetterTopicValues()).anySatisfy(value -> assertThat(value).isEqualTo(poison));
    }

    /**
     * Nothing the log can hold stalls the job: an order at every limit of {@code OrderLimits} is counted; one with a
     * kitchen id beyond them (which the database's column cannot hold) is refused by the codec, and one the database
     * refuses all the same (a constraint) is dead-lettered, each with its reason, and the orders after them are
     * counted. Before, either one was retried every second for ever.
     */
    @Test
    void deadLettersWhatItCannotStoreFromTheLogWithItsReasonAndReadsOn() {
        input.awaitLogAssignment();
        refuseKitchensNamedRefused();
        long before = processor.received().getOrDefault("kafka", 0L);
        long deadBefore = processor.deadLettered();
        String kitchen = "kl-" + UUID.randomUUID();
        OrderEvent atTheLimits = atTheLimits();
        OrderEvent tooLong = order("k".repeat(OrderLimits.MAX_ID_LENGTH + 236), 2, Instant.now());
        OrderEvent refused = order("k-refused-" + UUID.randomUUID(), 3, Instant.now());
        // all on one partition, one after the other, with three good orders after them
        input.sendToLog(kitchen, atTheLimits);
        input.sendToLog(kitchen, tooLong);
        input.sendToLog(kitchen, refused);
        for (int i = 4; i <= 6; i++) {
            input.sendToLog(kitchen, order(kitchen, i, Instant.now()));
        }
        input.flushLog();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(processor.received().get("kafka") - before).isEqualTo(4);
            assertThat(processor.deadLettered() - deadBefore).isEqualTo(2);
        });
        DayReport limitsDay = aggregates.day(LocalDate.ofInstant(atTheLimits.placedAt(), ZoneOffset.UTC), ZoneOffset.UTC);
        assertThat(limitsDay.ordersPerKitchen()).containsEntry(atTheLimits.kitchenId(), 1L);
        assertThat(limitsDay.portionsPerDish()).containsEntry(atTheLimits.items().get(0).dish(), (long) OrderLimits.MAX_QUANTITY);
        assertThat(aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC).ordersPerKitchen()).containsEntry(kitchen, 3L);
        Map<String, String> reasons = input.deadLetterTopicReasons();
        assertThat(reasonFor(reasons, tooLong)).contains("kitchenId has 300 characters, more than 64");
        assertThat(reasonFor(reasons, refused)).contains("order " + refused.orderId() + " cannot be stored")
                .containsIgnoringCase("REFUSED_KITCHEN");
    }

    /** The same on the dashboard's queue: dead-lettered with the reason, the rest counted, no requeue loop. */
    @Test
    void deadLettersWhatItCannotStoreFromItsQueueWithItsReasonAndReadsOn() {
        refuseKitchensNamedRefused();
        input.takeDeadLetterQueueReasons();
        long before = processor.received().getOrDefault("own-queue", 0L);
        long deadBefore = processor.deadLettered();
        String kitchen = "kq-" + UUID.randomUUID();
        OrderEvent atTheLimits = atTheLimits();
        OrderEvent tooLong = order("k".repeat(OrderLimits.MAX_ID_LENGTH + 236), 2, Instant.now());
        OrderEvent refused = order("k-refused-" + UUID.randomUUID(), 3, Instant.now());
        input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(atTheLimits));
        input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(tooLong));
        input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(refused));
        for (int i = 4; i <= 6; i++) {
            input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(order(kitchen, i, Instant.now())));
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(processor.received().get("own-queue") - before).isEqualTo(4);
            assertThat(processor.deadLettered() - deadBefore).isEqualTo(2);
            assertThat(input.queueDepth(Topology.ANALYTICS_QUEUE)).isZero();
        });
        assertThat(aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC).ordersPerKitchen()).containsEntry(kitchen, 3L);
        Map<String, String> reasons = input.takeDeadLetterQueueReasons();
        assertThat(reasons).hasSize(2);
        assertThat(reasonFor(reasons, tooLong)).contains("kitchenId has 300 characters, more than 64");
        assertThat(reasonFor(reasons, refused)).contains("order " + refused.orderId() + " cannot be stored")
                .containsIgnoringCase("REFUSED_KITCHEN");
    }

    /** A constraint of the database that refuses the orders of kitchens named {@code k-refused-…}, as data it cannot hold. */
    private void refuseKitchensNamedRefused() {
        new JdbcTemplate(dataSource).execute("ALTER TABLE kitchen_minute ADD CONSTRAINT IF NOT EXISTS refused_kitchen "
                + "CHECK (kitchen_id NOT LIKE 'k-refused-%')");
    }

    private static String reasonFor(Map<String, String> reasons, OrderEvent event) {
        return reasons.entrySet().stream().filter(entry -> entry.getKey().contains(event.orderId()))
                .map(Map.Entry::getValue).findFirst().orElseThrow(() -> new AssertionError(event.orderId() + " not dead-lettered"));
    }

    /** An order with every field at its limit, in characters of three and four bytes of UTF-8, on the last day there is. */
    private OrderEvent atTheLimits() {
        String id = UUID.randomUUID().toString();
        List<OrderItem> items = new ArrayList<>();
        for (int i = 0; i < OrderLimits.MAX_ITEMS; i++) {
            items.add(new OrderItem(limitText(id + "-dish" + i, OrderLimits.MAX_ID_LENGTH), OrderLimits.MAX_QUANTITY));
        }
        return new OrderEvent(limitText(id, OrderLimits.MAX_EVENT_ID_LENGTH), OrderLimits.LATEST_PLACED_AT,
                limitText(id + "-kitchen", OrderLimits.MAX_ID_LENGTH), limitText(id, OrderLimits.MAX_ID_LENGTH), items,
                limitText(id, OrderLimits.MAX_ADDRESS_LENGTH), limitText(id, OrderLimits.MAX_NOTES_LENGTH),
                limitText("live", OrderLimits.MAX_EVENT_ID_LENGTH), limitText(run, OrderLimits.MAX_EVENT_ID_LENGTH), 1);
    }

    /** {@code start}, then euro signs and G clefs (a surrogate pair each) up to {@code length} UTF-16 units. */
    private static String limitText(String start, int length) {
        StringBuilder text = new StringBuilder(start);
        while (text.length() < length) {
            text.append(length - text.length() >= 2 && text.length() % 2 == 0 ? "\uD834\uDD1E" : "\u20AC");
        }
        return text.toString();
    }

    @Test
    void countsTheLogAtTheJobsPaceNotAPollAtATime() throws Exception {
        input.awaitLogAssignment();
        assertThat(putCapacity(50, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
        try {
            long before = processor.received().getOrDefault("kafka", 0L);
            String kitchen = "kp-" + UUID.randomUUID();
            sendToLog(kitchen, 1, 100);
            // the distinct counts seen while the job works through them (2 s at 50/s)
            List<Long> counts = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
                long counted = processor.received().getOrDefault("kafka", 0L) - before;
                if (counts.isEmpty() || counts.get(counts.size() - 1) != counted) {
                    counts.add(counted);
                }
                return counted >= 100;
            });
            long largestStep = 0;
            for (int i = 1; i < counts.size(); i++) {
                largestStep = Math.max(largestStep, counts.get(i) - counts.get(i - 1));
            }
            // a step is 200 ms of the capacity, 10 records; two may fall between samples on a busy machine,
            // while a poll counted at once would be a jump of up to all 100
            assertThat(largestStep).as("the largest jump of the count, in %s", counts).isLessThanOrEqualTo(20);
            assertThat(counts.get(counts.size() - 1)).isEqualTo(100);
        }
        finally {
            assertThat(putCapacity(5000, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void pullsTheFeedNeverMoreThanItsCapacity() throws Exception {
        assertThat(putCapacity(500, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
        try {
            long before = processor.received().getOrDefault("feed", 0L);
            String kitchen = "kf-" + UUID.randomUUID();
            for (int i = 1; i <= 300; i++) {
                FEED.add(order(kitchen, i, Instant.now()));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> processor.received().get("feed") - before == 300);
            assertThat(FEED.left()).isZero();
            // about 200 ms of work per pull at 500/s
            assertThat(FEED.asked()).isNotEmpty().allSatisfy(max -> assertThat(max).isEqualTo(100));
            assertThat(aggregates.day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC).ordersPerKitchen()).containsEntry(kitchen, 300L);
        }
        finally {
            assertThat(putCapacity(5000, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void capacityLimitsTheRate() throws Exception {
        assertThat(putCapacity(200, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
        assertThat(putCapacity(200, "viewer", "test-viewer-secret").statusCode()).isEqualTo(403);
        assertThat(putCapacity(0, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(400);
        try {
            assertThat(json.readTree(get("/api/stats")).path("capacityPerSecond").asInt()).isEqualTo(200);
            long base = total();
            String kitchen = "kr-" + UUID.randomUUID();
            for (int i = 1; i <= 1000; i++) {
                input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(order(kitchen, i, Instant.now())));
            }
            // the slope of (time, processed) samples between 100 and 900 processed: robust against a
            // sample taken late on a busy machine, which would bias a two-point measurement
            List<double[]> samples = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> {
                long processed = total() - base;
                if (processed >= 100 && processed <= 900) {
                    samples.add(new double[] {System.nanoTime() / 1e9, processed});
                }
                return processed >= 900;
            });
            double rate = slope(samples);
            log.info("measured {} events/s at capacity 200 over {} samples", rate, samples.size());
            assertThat(samples).hasSizeGreaterThan(20);
            assertThat(rate).as("processed per second at capacity 200").isCloseTo(200, within(20.0));
            await().atMost(Duration.ofSeconds(10)).until(() -> total() - base == 1000);
        }
        finally {
            assertThat(putCapacity(5000, "admin", ADMIN_PASSWORD).statusCode()).isEqualTo(200);
        }
    }

    /**
     * The offsets that count are the database's, not Kafka's: before the restart the group's committed offsets are
     * set behind the database's on one kitchen's partition (what a kill -9 leaves: Kafka's commit lags the database's
     * by up to a second) and ahead of them on the other's (a group reset to the latest offsets, or a data folder
     * restored from a backup). Without the seek to the stored offsets the second kitchen's 30 later orders would be
     * skipped, and the first kitchen's 50 earlier ones would be read again. The log is one of the test's own, with
     * the partitions of {@code orders}: the first dashboard reads it from its start, and nothing else is on it.
     */
    @Test
    void restartWithTheSameDataDirCountsNothingTwice() throws Exception {
        Path dataDir = ServiceTestSetup.newDataDir("analytics-dashboard-test");
        String topic = "orders-restart-" + UUID.randomUUID();
        String group = "restart-" + UUID.randomUUID();
        String behind = kitchenOnPartition(-1);
        String ahead = kitchenOnPartition(partitionOf(behind));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, Topology.ORDERS_PARTITIONS, (short) 1))).all().get();
        }
        try (ConfigurableApplicationContext first = startDashboard(dataDir, group, topic)) {
            sendTo(topic, behind, 1, 50);
            sendTo(topic, ahead, 1, 50);
            await().atMost(Duration.ofSeconds(30)).until(() -> countOf(first, behind) == 50 && countOf(first, ahead) == 50);
        }
        sendTo(topic, behind, 51, 30);
        sendTo(topic, ahead, 51, 30);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            TopicPartition behindPartition = new TopicPartition(topic, partitionOf(behind));
            TopicPartition aheadPartition = new TopicPartition(topic, partitionOf(ahead));
            long end = admin.listOffsets(Map.of(aheadPartition, OffsetSpec.latest())).partitionResult(aheadPartition).get().offset();
            // the group has left with the first dashboard's graceful stop, so its offsets can be set
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(() -> admin.alterConsumerGroupOffsets(group,
                    Map.of(behindPartition, new OffsetAndMetadata(0), aheadPartition, new OffsetAndMetadata(end))).all().get());
        }
        try (ConfigurableApplicationContext second = startDashboard(dataDir, group, topic)) {
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(List.of(countOf(second, behind), countOf(second, ahead)))
                    .as("orders of the kitchen whose committed offset was behind, ahead").containsExactly(80L, 80L));
            // whatever Kafka hands over after the restart is not counted again
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() ->
                    countOf(second, behind) == 80 && countOf(second, ahead) == 80);
        }
    }

    /**
     * A topic deleted and made again under the same name (what a new cluster behind the same address is to a
     * dashboard that keeps its data folder: {@code ./demo up --cluster} after a single broker) is another log: its
     * records are counted from its start, not taken for ones already counted below the old log's stored offsets.
     */
    @Test
    void aTopicMadeAgainIsReadFromItsStart() throws Exception {
        Path dataDir = ServiceTestSetup.newDataDir("analytics-dashboard-test");
        String topic = "orders-remade-" + UUID.randomUUID();
        String group = "remade-" + UUID.randomUUID();
        String kitchen = "kr-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            sendTo(topic, kitchen, 1, 20);
            try (ConfigurableApplicationContext first = startDashboard(dataDir, group, topic)) {
                await().atMost(Duration.ofSeconds(30)).until(() -> countOf(first, kitchen) == 20);
            }
            admin.deleteTopics(List.of(topic)).all().get();
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get());
            sendTo(topic, kitchen, 21, 5);
            try (ConfigurableApplicationContext second = startDashboard(dataDir, group, topic)) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(countOf(second, kitchen))
                        .as("the 20 orders of the first log and the 5 of the one made again").isEqualTo(25));
            }
        }
    }

    /**
     * The stored offsets are vouched for by the topic's Kafka id; while Kafka cannot say it at an assignment (here
     * the dashboard's admin client is pointed where no broker answers for the listener's first two asks), nothing is
     * read, and readiness says so; once it answers, the dashboard reads on from its stored offsets. Before, it read
     * on from them unvouched.
     */
    @Test
    void readsNothingWhileKafkaCannotSayTheTopicsId() throws Exception {
        Path dataDir = ServiceTestSetup.newDataDir("analytics-dashboard-test");
        String topic = "orders-unvouched-" + UUID.randomUUID();
        String group = "unvouched-" + UUID.randomUUID();
        String kitchen = "ku-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        sendTo(topic, kitchen, 1, 10);
        try (ConfigurableApplicationContext first = startDashboard(dataDir, group, topic)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> countOf(first, kitchen) == 10);
        }
        sendTo(topic, kitchen, 11, 5);
        try (ConfigurableApplicationContext second = startDashboard(dataDir, group, topic, false)) {
            // the listener asks for the id on its consumer thread: its first two asks go nowhere, the later ones reach
            // Kafka, and every other client of the admin (readiness) finds Kafka as the listener's last ask did
            AtomicInteger asks = new AtomicInteger();
            String nowhere = "127.0.0.1:" + FreePorts.next();
            second.getBean(KafkaAdmin.class).setBootstrapServersSupplier(() -> {
                int asked = Thread.currentThread().getName().startsWith("analytics-dashboard-kafka-")
                        ? asks.incrementAndGet() : asks.get();
                return asked > 2 ? TestBrokers.kafkaBootstrapServers() : nowhere;
            });
            second.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer("analytics-dashboard-kafka").start();

            // assigned, Kafka asked for the id in vain: held, and readiness says so
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(readiness(second).path("components")
                    .path("reading").path("details").path("offsets").asString()).contains("cannot be vouched for"));
            assertThat(readiness(second).path("status").asString()).isEqualTo("DOWN");
            // nothing read, then or after the second ask in vain, until the listener asks a third time; the count is
            // taken before the asks, so that a record read after the third ask is never taken for one read before it
            await().atMost(Duration.ofSeconds(30)).failFast("read while the stored offsets could not be vouched for", () -> {
                long counted = countOf(second, kitchen);
                return counted != 10 && asks.get() <= 2;
            }).until(() -> asks.get() > 2);

            await().atMost(Duration.ofSeconds(30)).until(() -> countOf(second, kitchen) == 15);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(readiness(second).path("components").path("reading").path("status").asString()).isEqualTo("UP"));
        }
    }

    @Test
    void aTopicNotMadeYetHoldsNothingBackAndIsReadOnceItIs() throws Exception {
        String topic = "orders-later-" + UUID.randomUUID();
        String kitchen = "kl-" + UUID.randomUUID();
        try (ConfigurableApplicationContext dashboard = startDashboard(ServiceTestSetup.newDataDir("analytics-dashboard-test"),
                "later-" + UUID.randomUUID(), topic)) {
            // no partition to vouch for: the reader is not held while the writer has not made its log yet
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(readiness(dashboard).path("components")
                    .path("reading").path("status").asString()).isEqualTo("UP"));
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
            }
            sendTo(topic, kitchen, 1, 5);
            await().atMost(Duration.ofSeconds(60)).until(() -> countOf(dashboard, kitchen) == 5);
        }
    }

    private JsonNode readiness(ConfigurableApplicationContext context) throws Exception {
        String port = context.getEnvironment().getProperty("local.server.port");
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness")).build(), HttpResponse.BodyHandlers.ofString());
        return json.readTree(response.body());
    }

    private void sendTo(String topic, String kitchen, int first, int count) {
        for (int i = first; i < first + count; i++) {
            kafka.send(topic, kitchen, order(kitchen, i, Instant.now()));
        }
        kafka.flush();
    }

    private static int partitionOf(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % Topology.ORDERS_PARTITIONS;
    }

    /** A kitchen id whose orders (keyed by it) go to another partition than {@code not}. */
    private static String kitchenOnPartition(int not) {
        while (true) {
            String kitchen = "ks-" + UUID.randomUUID();
            if (partitionOf(kitchen) != not) {
                return kitchen;
            }
        }
    }

    @Test
    void pageChartsAnOrderPlacedAfterItLoaded() {
        ChromeDriver driver = Browsers.headlessChromium();
        try {
            driver.get("http://127.0.0.1:" + port + "/");
            await().atMost(Duration.ofSeconds(15)).until(() -> "live".equals(driver.findElement(By.id("connection")).getText()));
            long shown = Long.parseLong(driver.findElement(By.id("total-orders")).getText());
            String kitchen = "kb-" + UUID.randomUUID().toString().substring(0, 8);
            input.publish(Topology.ANALYTICS_QUEUE, OrderEventCodec.encode(order(kitchen, 1, Instant.now())));
            await().atMost(Duration.ofSeconds(15)).until(() ->
                    Long.parseLong(driver.findElement(By.id("total-orders")).getText()) > shown);
            Object labels = driver.executeScript("return window.lunchRushCharts.kitchens.data.labels;");
            assertThat(String.valueOf(labels)).contains(kitchen);
        }
        finally {
            driver.quit();
        }
    }

    private ConfigurableApplicationContext startDashboard(Path dataDir, String group, String topic) {
        return startDashboard(dataDir, group, topic, true);
    }

    private ConfigurableApplicationContext startDashboard(Path dataDir, String group, String topic, boolean listen) {
        RabbitBroker broker = TestBrokers.rabbit();
        Map<String, Object> properties = new java.util.LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", TestBrokers.kafkaBootstrapServers());
        properties.put("spring.rabbitmq.host", broker.host());
        properties.put("spring.rabbitmq.port", broker.port());
        properties.put("spring.rabbitmq.username", broker.username());
        properties.put("spring.rabbitmq.password", broker.password());
        properties.put("spring.rabbitmq.virtual-host", broker.virtualHost());
        properties.put("server.port", 0);
        properties.put("lunchrush.data-dir", dataDir.toString());
        properties.put("spring.kafka.consumer.group-id", group);
        properties.put("lunchrush.kafka.topic", topic);
        properties.put("lunchrush.kafka.listen", listen);
        properties.put("lunchrush.rabbitmq.listen", false);
        properties.put("lunchrush.feed.enabled", false);
        properties.put("lunchrush.analytics.capacity-per-second", 5000);
        properties.put("management.metrics.export.prometheus.enabled", false);
        // as command-line arguments: they win over application.yml, as the environment would
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(AnalyticsDashboardApplication.class).run(args);
    }

    private static long countOf(ConfigurableApplicationContext context, String kitchen) {
        DayReport today = context.getBean(Aggregates.class).day(LocalDate.now(ZoneOffset.UTC), ZoneOffset.UTC);
        return today.ordersPerKitchen().getOrDefault(kitchen, 0L);
    }

    private void sendToLog(String kitchen, int first, int count) {
        for (int i = first; i < first + count; i++) {
            OrderEvent event = order(kitchen, i, Instant.now());
            input.sendToLog(event.kitchenId(), event);
        }
        input.flushLog();
    }

    private static double slope(List<double[]> points) {
        double meanX = points.stream().mapToDouble(p -> p[0]).average().orElseThrow();
        double meanY = points.stream().mapToDouble(p -> p[1]).average().orElseThrow();
        double covariance = points.stream().mapToDouble(p -> (p[0] - meanX) * (p[1] - meanY)).sum();
        double variance = points.stream().mapToDouble(p -> (p[0] - meanX) * (p[0] - meanX)).sum();
        return covariance / variance;
    }

    private long total() {
        return processor.received().values().stream().mapToLong(Long::longValue).sum();
    }

    private OrderEvent order(String kitchen, long sequence, Instant placedAt) {
        return new OrderEvent(run + "-" + sequence + "-" + UUID.randomUUID(), placedAt, kitchen, "c-1042",
                List.of(new OrderItem("pad-thai", 2), new OrderItem("spring-rolls", 1)), "12 Mill Lane", "no peanuts",
                OrderEvent.ORIGIN_LIVE, run, sequence);
    }

    private static long received(JsonNode stats, String source) {
        return stats.path("received").path(source).asLong();
    }

    private HttpResponse<String> putCapacity(int eventsPerSecond, String user, String password) throws Exception {
        return send("PUT", "/admin/capacity", "{\"eventsPerSecond\":" + eventsPerSecond + "}", user + ":" + password);
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = send("GET", path, null, null);
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    private HttpResponse<String> send(String method, String path, String body, String credentials) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (credentials != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
