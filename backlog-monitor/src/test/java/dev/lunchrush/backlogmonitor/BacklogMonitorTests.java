package dev.lunchrush.backlogmonitor;

import dev.lunchrush.testing.TestBrokers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.Browsers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The monitor against a real Kafka broker and a real RabbitMQ virtual host: a group that committed
 * part of the log and stopped, a group that never committed, a queue with messages and no consumer.
 */
class BacklogMonitorTests implements RunningMonitor {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    RabbitTemplate rabbit;

    @Autowired
    RabbitAdmin rabbitAdmin;

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void ordersTopic() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(Topology.ORDERS_TOPIC, Topology.ORDERS_PARTITIONS, (short) 1)))
                    .all().get();
        }
        catch (java.util.concurrent.ExecutionException ex) {
            if (!(ex.getCause() instanceof TopicExistsException)) {
                throw ex;
            }
        }
    }

    @Test
    void stoppedGroupsAgeGrowsWithTheClockAndDropsToZeroOnceCaughtUp() throws Exception {
        Map<TopicPartition, Long> before = endOffsets();
        TopicPartition p0 = new TopicPartition(Topology.ORDERS_TOPIC, 0);
        TopicPartition p1 = new TopicPartition(Topology.ORDERS_TOPIC, 1);
        TopicPartition p2 = new TopicPartition(Topology.ORDERS_TOPIC, 2);
        Instant base = Instant.ofEpochMilli(System.currentTimeMillis()).minusSeconds(120).minusMillis(337);
        try (KafkaProducer<String, byte[]> producer = producer()) {
            for (int i = 0; i < 10; i++) {
                send(producer, 0, base.plusSeconds(i));
            }
            for (int i = 0; i < 5; i++) {
                send(producer, 1, base.plusSeconds(30 + i));
            }
            producer.flush();
        }
        String group = "slow-reader-" + UUID.randomUUID().toString().substring(0, 6);
        // read 4 of partition 0, all of partition 1, nothing of partition 2 (which got nothing), then stop
        commit(group, Map.of(p0, before.get(p0) + 4, p1, before.get(p1) + 5, p2, before.get(p2)));
        String reader = "kafka:" + group;
        Instant oldest = base.plusSeconds(4);

        await().atMost(Duration.ofSeconds(30)).until(() -> reader(reader), r -> r != null && r.path("unread").asLong() == 6);
        // each reading is bracketed by the wall clock before and after the call: the age was computed in between
        Reading first = reading(reader);
        assertThat(first.node().path("oldestUnreadAt").asString()).isEqualTo(oldest.toString());
        assertThat(first.age()).isBetween(seconds(oldest, first.before()) - 0.01, seconds(oldest, first.after()) + 0.01);

        // the reader is stopped: its age keeps growing, second for second
        await().atMost(Duration.ofSeconds(30)).until(() -> reader(reader), r -> r.path("oldestUnreadAgeSeconds").asDouble() >= first.age() + 3);
        Reading second = reading(reader);
        double grown = second.age() - first.age();
        assertThat(grown).isBetween(seconds(first.after(), second.before()) - 2.0, seconds(first.before(), second.after()) + 2.0);
        assertThat(second.node().path("unread").asLong()).isEqualTo(6);

        Instant beforeScrape = Instant.now();
        String scrape = get("/actuator/prometheus");
        Instant afterScrape = Instant.now();
        assertThat(metric(scrape, "backlog_unread_events", reader)).isEqualTo(6.0);
        assertThat(metric(scrape, "backlog_oldest_unread_age_seconds", reader))
                .isBetween(seconds(oldest, beforeScrape) - 0.01, seconds(oldest, afterScrape) + 0.01);
        assertThat(scrape).contains("backlog_source_up{application=\"backlog-monitor\",source=\"kafka\"} 1.0");

        // the configured groups never committed: everything in the log is theirs to read, a dead reader's alarm
        long total = endOffsets().values().stream().mapToLong(Long::longValue).sum();
        JsonNode kitchen = await().atMost(Duration.ofSeconds(10))
                .until(() -> reader("kafka:" + Topology.KITCHEN_GROUP), r -> r != null && r.path("unread").asLong() == total);
        assertThat(kitchen.path("oldestUnreadAgeSeconds").asDouble()).isGreaterThanOrEqualTo(seconds(base, Instant.now()) - 2.0);

        // it catches up: nothing unread, age 0
        Map<TopicPartition, Long> end = endOffsets();
        commit(group, end);
        await().atMost(Duration.ofSeconds(10)).until(() -> reader(reader),
                r -> r.path("unread").asLong() == 0 && r.path("oldestUnreadAgeSeconds").asDouble() == 0.0);

        // and stays at 0 while the producer is idle: the age of nothing is 0, not the time since the last event
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> reader(reader),
                r -> r.path("unread").asLong() == 0 && r.path("oldestUnreadAgeSeconds").asDouble() == 0.0);
        assertThat(metric(get("/actuator/prometheus"), "backlog_oldest_unread_age_seconds", reader)).isEqualTo(0.0);
    }

    /**
     * An import writes its batches as Kafka transactions: each ends with a commit marker on every partition, an
     * offset that holds no record. A reader that read every record commits, as a Spring Kafka listener does, the
     * offset after its last record: the last marker's, one short of the end, and nothing is unread. A reader
     * stopped at the first batch's marker has the second batch unread, dated by its first record.
     */
    @Test
    void aReaderThatReadEveryRecordOfAnImportHasNothingUnread() throws Exception {
        Map<TopicPartition, Long> before = endOffsets();
        // older than the other tests' records: the log's oldest, whichever test runs first (a group that never
        // committed is dated by the log's oldest record)
        Instant first = Instant.ofEpochMilli(System.currentTimeMillis()).minusSeconds(3_600).minusMillis(211);
        Instant second = first.plusSeconds(20);
        try (KafkaProducer<String, byte[]> producer = transactionalProducer()) {
            producer.initTransactions();
            for (Instant batch : List.of(first, second)) {
                producer.beginTransaction();
                for (int p = 0; p < Topology.ORDERS_PARTITIONS; p++) {
                    for (int i = 0; i < (batch == first ? 4 : 2); i++) {
                        send(producer, p, batch.plusMillis(i));
                    }
                }
                producer.commitTransaction();
            }
        }
        Map<TopicPartition, Long> end = endOffsets();

        String everything = "read-everything-" + UUID.randomUUID().toString().substring(0, 6);
        Map<TopicPartition, Long> committed = readAllAndCommit(everything, before, 18);
        // the offset of the last commit marker, one short of the end
        assertThat(committed).allSatisfy((partition, offset) -> assertThat(offset).isEqualTo(end.get(partition) - 1));

        String stopped = "stopped-at-a-marker-" + UUID.randomUUID().toString().substring(0, 6);
        Map<TopicPartition, Long> atFirstMarker = new HashMap<>();
        before.forEach((partition, offset) -> atFirstMarker.put(partition, offset + 4));
        commit(stopped, atFirstMarker);

        await().atMost(Duration.ofSeconds(30)).until(() -> reader("kafka:" + stopped), r -> r != null && r.path("unread").asLong() > 0);
        JsonNode reading = await().atMost(Duration.ofSeconds(30)).until(() -> reader("kafka:" + everything),
                r -> r != null && r.path("details").path("partitions").size() == Topology.ORDERS_PARTITIONS);
        assertThat(reading.path("unread").asLong()).as("unread of a reader that read every record").isZero();
        assertThat(reading.path("oldestUnreadAgeSeconds").asDouble()).isZero();
        String scrape = get("/actuator/prometheus");
        assertThat(metric(scrape, "backlog_unread_events", "kafka:" + everything)).isEqualTo(0.0);
        assertThat(metric(scrape, "backlog_oldest_unread_age_seconds", "kafka:" + everything)).isEqualTo(0.0);

        // from the second batch's first record on: its 2 records and its commit marker per partition, not the
        // first batch's marker before them
        JsonNode partial = reader("kafka:" + stopped);
        assertThat(partial.path("unread").asLong()).isEqualTo(3L * Topology.ORDERS_PARTITIONS);
        assertThat(partial.path("oldestUnreadAt").asString()).isEqualTo(second.toString());
    }

    /**
     * A read_committed consumer of {@code group} reads from {@code from} until it has {@code records} and commits the
     * offset after the last record of each partition, as a Spring Kafka listener does.
     */
    private static Map<TopicPartition, Long> readAllAndCommit(String group, Map<TopicPartition, Long> from, int records) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(from.keySet());
            from.forEach(consumer::seek);
            int[] read = new int[1];
            Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> {
                    read[0]++;
                    next.put(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1));
                });
                return read[0] >= records;
            });
            assertThat(read[0]).isEqualTo(records);
            consumer.commitSync(next);
            Map<TopicPartition, Long> committed = new HashMap<>();
            consumer.committed(from.keySet()).forEach((partition, offset) -> committed.put(partition, offset.offset()));
            return committed;
        }
    }

    private static KafkaProducer<String, byte[]> transactionalProducer() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "import-" + UUID.randomUUID());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(config);
    }

    @Test
    void queueWithMessagesAndNoConsumerIsDatedByItsHeadMessage() throws Exception {
        rabbitAdmin.declareQueue(QueueBuilder.durable(Topology.KITCHEN_QUEUE).build());
        rabbitAdmin.purgeQueue(Topology.KITCHEN_QUEUE, false);
        Instant placedAt = Instant.now().minusSeconds(40);
        for (int i = 0; i < 4; i++) {
            Instant timestamp = placedAt.plusSeconds(i * 5L);
            rabbit.convertAndSend("", Topology.KITCHEN_QUEUE, OrderEventCodec.encode(order(timestamp)), message -> {
                MessageProperties properties = message.getMessageProperties();
                properties.setTimestamp(Date.from(timestamp));
                properties.setContentType(MessageProperties.CONTENT_TYPE_JSON);
                return message;
            });
        }
        String reader = "rabbitmq:" + Topology.KITCHEN_QUEUE;
        // the management API refreshes queue figures every few seconds, and reports the head message's
        // timestamp only once that message is paged in: until then the age is unknown (null), not 0
        JsonNode backlog = await().atMost(Duration.ofSeconds(30)).until(() -> reader(reader),
                r -> r != null && r.path("unread").asLong() == 4 && r.path("oldestUnreadAgeSeconds").isNumber());
        // the head message's timestamp has whole-second resolution: the age may be up to 1 s more
        Instant head = Instant.ofEpochSecond(placedAt.getEpochSecond());
        Reading reading = reading(reader);
        assertThat(reading.node().path("oldestUnreadAt").asString()).isEqualTo(head.toString());
        assertThat(reading.age()).isBetween(seconds(placedAt, reading.before()) - 0.01, seconds(placedAt, reading.after()) + 1.01);
        assertThat(backlog.path("kind").asString()).isEqualTo("rabbitmq");
        assertThat(reader("rabbitmq:" + Topology.NOTIFICATION_QUEUE)).as("a queue that does not exist is no reader").isNull();
        String scrape = get("/actuator/prometheus");
        assertThat(metric(scrape, "backlog_unread_events", reader)).isEqualTo(4.0);
        assertThat(scrape).contains("backlog_source_up{application=\"backlog-monitor\",source=\"rabbitmq\"} 1.0");

        rabbitAdmin.purgeQueue(Topology.KITCHEN_QUEUE, false);
        await().atMost(Duration.ofSeconds(20)).until(() -> reader(reader),
                r -> r.path("unread").asLong() == 0 && r.path("oldestUnreadAgeSeconds").asDouble() == 0.0);
    }

    @Test
    void thePageShowsEveryReader() throws Exception {
        String reader = "kafka:" + Topology.ANALYTICS_GROUP;
        JsonNode backlog = await().atMost(Duration.ofSeconds(20)).until(() -> reader(reader), r -> r != null);
        ChromeDriver browser = Browsers.headlessChromium();
        try {
            browser.get("http://localhost:" + port + "/");
            // the table is fed by server-sent events: the reader's row, with its unread count
            // read in one script: the rows are redrawn at every event, an element found now is stale soon
            String row = await().atMost(Duration.ofSeconds(120)).until(() -> String.valueOf(browser.executeScript(
                    "return [...document.querySelectorAll('#readers tbody tr')].map(r => r.innerText)"
                            + ".find(t => t.startsWith(arguments[0])) || ''", reader)), text -> !text.isEmpty());
            long unread = Long.parseLong(row.substring(reader.length()).trim().split("\\s+")[0].replace(",", ""));
            assertThat(unread).isEqualTo(backlog.path("unread").asLong());
            assertThat(browser.findElement(By.id("sources")).getText()).contains("kafka: up", "rabbitmq: up");
            Object datasets = browser.executeScript("return Chart.getChart('ages').data.datasets.map(d => d.label).join(',')");
            assertThat(String.valueOf(datasets)).contains(reader);
        }
        finally {
            browser.quit();
        }
    }

    /**
     * Anyone who reaches Kafka may create a consumer group, and the monitor shows every group: a name made of markup
     * is shown as text and runs nothing (before, {@code innerHTML} made it an image whose onerror changed the title).
     */
    @Test
    void aConsumerGroupNamedWithMarkupIsShownAsTextAndRunsNothing() throws Exception {
        String hostile = "<img src=x onerror=\"document.title='pwned'\">";
        String reader = "kafka:" + hostile;
        Map<TopicPartition, Long> ends = endOffsets();
        Map<TopicPartition, Long> start = new HashMap<>();
        ends.keySet().forEach(partition -> start.put(partition, 0L));
        commit(hostile, start);
        await().atMost(Duration.ofSeconds(20)).until(() -> reader(reader), r -> r != null);
        ChromeDriver browser = Browsers.headlessChromium();
        try {
            browser.get("http://localhost:" + port + "/");
            String title = browser.getTitle();
            assertThat(title).isNotEqualTo("pwned");
            // the rows come with the server-sent events; a page that took the name as markup changes its title instead
            await().atMost(Duration.ofSeconds(120)).until(() -> "pwned".equals(browser.getTitle())
                    || Boolean.TRUE.equals(browser.executeScript("return [...document.querySelectorAll('#readers tbody tr')]"
                            + ".some(r => r.cells[0].textContent === arguments[0])", reader)));
            Object images = browser.executeScript("return document.querySelectorAll('#readers img, #sources img').length");
            assertThat(((Number) images).intValue()).as("images made from the group's name").isZero();
            // an image's onerror runs once its load failed: a while later the title is still the page's own
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(browser::getTitle, title::equals);
            Object datasets = browser.executeScript("return Chart.getChart('ages').data.datasets.map(d => d.label)");
            assertThat(String.valueOf(datasets)).contains(hostile);
        }
        finally {
            browser.quit();
        }
    }

    private Reading reading(String name) throws Exception {
        Instant before = Instant.now();
        JsonNode node = reader(name);
        Instant after = Instant.now();
        return new Reading(before, node, after);
    }

    private record Reading(Instant before, JsonNode node, Instant after) {
        double age() {
            return node.path("oldestUnreadAgeSeconds").asDouble();
        }
    }

    private JsonNode reader(String name) throws Exception {
        for (JsonNode reader : JSON.readTree(get("/api/readers"))) {
            if (reader.path("reader").asString().equals(name)) {
                return reader;
            }
        }
        return null;
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    private static double metric(String scrape, String name, String reader) {
        Matcher matcher = Pattern.compile("(?m)^" + name + "\\{[^}]*reader=\"" + Pattern.quote(reader) + "\"[^}]*} (\\S+)$")
                .matcher(scrape);
        assertThat(matcher.find()).as(name + " for " + reader + " in\n" + scrape).isTrue();
        return Double.parseDouble(matcher.group(1));
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }

    private static void send(KafkaProducer<String, byte[]> producer, int partition, Instant placedAt) {
        OrderEvent order = order(placedAt);
        producer.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, partition, placedAt.toEpochMilli(), order.kitchenId(),
                OrderEventCodec.encode(order)));
    }

    private static OrderEvent order(Instant placedAt) {
        return new OrderEvent(UUID.randomUUID().toString(), placedAt, "k1", "c-1", List.of(new OrderItem("pad-thai", 2)),
                "1 Mill Lane", null, OrderEvent.ORIGIN_LIVE, "test", 1);
    }

    private static void commit(String group, Map<TopicPartition, Long> offsets) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
            consumer.assign(offsets.keySet());
            Map<TopicPartition, OffsetAndMetadata> commits = new HashMap<>();
            offsets.forEach((partition, offset) -> commits.put(partition, new OffsetAndMetadata(offset)));
            consumer.commitSync(commits);
        }
    }

    private static Map<TopicPartition, Long> endOffsets() throws Exception {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            for (int p = 0; p < Topology.ORDERS_PARTITIONS; p++) {
                request.put(new TopicPartition(Topology.ORDERS_TOPIC, p), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> offsets = new HashMap<>();
            admin.listOffsets(request).all().get().forEach((partition, info) -> offsets.put(partition, info.offset()));
            return offsets;
        }
    }

    private static KafkaProducer<String, byte[]> producer() {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(config);
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers()));
    }

}
