package dev.lunchrush.reportreplayer.groups;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.Topology;
import dev.lunchrush.reportreplayer.ReplayerOnBrokersTest;
import dev.lunchrush.reportreplayer.TestLog;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The group reset against a real Kafka broker: dry run, applying, and the refusal while a reader runs. Its web edge
 * (bad input, who may reset) is a slice, {@link GroupResetControllerTests}.
 */
@ReplayerOnBrokersTest
class GroupResetTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @BeforeAll
    static void topic() throws Exception {
        TestLog.ensureTopic();
    }

    @Test
    void dryRunShowsTheTargetsThenTheResetMovesTheGroup() throws Exception {
        Instant base = LocalDate.now(ZoneOffset.UTC).minusDays(11).atTime(9, 0).toInstant(ZoneOffset.UTC);
        try (KafkaProducer<String, byte[]> producer = TestLog.producer()) {
            for (int partition = 0; partition < Topology.ORDERS_PARTITIONS; partition++) {
                for (int hour = 0; hour < 6; hour++) {
                    Instant placedAt = base.plus(Duration.ofHours(hour));
                    producer.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, partition, placedAt.toEpochMilli(), "k1",
                            OrderEventCodec.encode(order(placedAt))));
                }
            }
            producer.flush();
        }
        Instant to = base.plus(Duration.ofHours(3));
        String group = "accounting-" + UUID.randomUUID().toString().substring(0, 6);
        Map<TopicPartition, Long> ends = ends();
        TestLog.commit(group, ends);
        Map<TopicPartition, Long> expected = firstOffsetsAtOrAfter(to, ends);

        HttpResponse<String> dry = TestLog.asAdmin(port, "POST", "/admin/groups/" + group + "/reset",
                "{\"toDatetime\":\"" + to.atOffset(ZoneOffset.ofHours(1)) + "\",\"dryRun\":true}");
        assertThat(dry.statusCode()).as(dry.body()).isEqualTo(200);
        JsonNode result = JSON.readTree(dry.body());
        assertThat(result.path("dryRun").asBoolean()).isTrue();
        assertThat(result.path("applied").asBoolean()).isFalse();
        assertThat(result.path("toDatetime").asString()).isEqualTo(to.toString());
        for (JsonNode partition : result.path("partitions")) {
            TopicPartition tp = new TopicPartition(Topology.ORDERS_TOPIC, partition.path("partition").asInt());
            assertThat(partition.path("currentOffset").asLong()).isEqualTo(ends.get(tp));
            assertThat(partition.path("targetOffset").asLong()).as("partition %s", tp).isEqualTo(expected.get(tp));
        }
        assertThat(committed(group)).as("a dry run moves nothing").isEqualTo(ends);

        HttpResponse<String> applied = TestLog.asAdmin(port, "POST", "/admin/groups/" + group + "/reset",
                "{\"toDatetime\":\"" + to + "\",\"dryRun\":false}");
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        assertThat(JSON.readTree(applied.body()).path("applied").asBoolean()).isTrue();
        assertThat(committed(group)).isEqualTo(expected);
    }

    @Test
    void aGroupKafkaDoesNotKnowYetIsResetToo() throws Exception {
        String group = "never-read-" + UUID.randomUUID().toString().substring(0, 6);
        Map<TopicPartition, Long> ends = ends();
        HttpResponse<String> dry = TestLog.asAdmin(port, "POST", "/admin/groups/" + group + "/reset",
                "{\"toDatetime\":\"2000-01-01T00:00:00Z\",\"dryRun\":true}");
        assertThat(dry.statusCode()).as(dry.body()).isEqualTo(200);
        for (JsonNode partition : JSON.readTree(dry.body()).path("partitions")) {
            assertThat(partition.path("currentOffset").isNull()).as("no offset yet: %s", partition).isTrue();
        }
        HttpResponse<String> applied = TestLog.asAdmin(port, "POST", "/admin/groups/" + group + "/reset",
                "{\"toDatetime\":\"2000-01-01T00:00:00Z\",\"dryRun\":false}");
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        assertThat(committed(group)).as("its first reader starts at the log's first records")
                .isEqualTo(firstOffsetsAtOrAfter(Instant.parse("2000-01-01T00:00:00Z"), ends));
    }

    @Test
    void refusesWhileTheGroupHasAnActiveMember() throws Exception {
        String group = "busy-" + UUID.randomUUID().toString().substring(0, 6);
        TestLog.commit(group, ends());
        Map<TopicPartition, Long> before = committed(group);
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try (KafkaConsumer<byte[], byte[]> consumer = TestLog.consumer(group)) {
                consumer.subscribe(List.of(Topology.ORDERS_TOPIC));
                while (!stop.get()) {
                    consumer.poll(Duration.ofMillis(100));
                }
            }
        }, "busy-reader");
        reader.start();
        try (Admin admin = TestLog.admin()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !admin.describeConsumerGroups(List.of(group)).all().get()
                    .get(group).members().isEmpty());
            for (boolean dryRun : new boolean[] {false, true}) {
                HttpResponse<String> refused = TestLog.asAdmin(port, "POST", "/admin/groups/" + group + "/reset",
                        "{\"toDatetime\":\"2026-11-20T00:00:00Z\",\"dryRun\":" + dryRun + "}");
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
                assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
                assertThat(JSON.readTree(refused.body()).path("activeMembers").asInt()).isEqualTo(1);
            }
        }
        finally {
            stop.set(true);
            reader.join(10_000);
        }
        assertThat(committed(group)).isEqualTo(before);
    }

    /** By reading the partitions plainly: the first offset whose timestamp is at or after the time, else the end. */
    private static Map<TopicPartition, Long> firstOffsetsAtOrAfter(Instant time, Map<TopicPartition, Long> ends) {
        Map<TopicPartition, Long> targets = new HashMap<>();
        ends.forEach((partition, end) -> {
            long target = end;
            for (long[] record : TestLog.offsetsAndTimestamps(partition, end)) {
                if (record[1] >= time.toEpochMilli()) {
                    target = record[0];
                    break;
                }
            }
            targets.put(partition, target);
        });
        return targets;
    }

    private static Map<TopicPartition, Long> ends() throws Exception {
        try (Admin admin = TestLog.admin()) {
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            for (int p = 0; p < Topology.ORDERS_PARTITIONS; p++) {
                request.put(new TopicPartition(Topology.ORDERS_TOPIC, p), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> ends = new HashMap<>();
            admin.listOffsets(request).all().get().forEach((partition, info) -> ends.put(partition, info.offset()));
            return ends;
        }
    }

    private static Map<TopicPartition, Long> committed(String group) throws Exception {
        try (Admin admin = TestLog.admin()) {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            Map<TopicPartition, OffsetAndMetadata> all = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            all.forEach((partition, offset) -> offsets.put(partition, offset.offset()));
            return offsets;
        }
    }

    private static OrderEvent order(Instant placedAt) {
        return new OrderEvent(UUID.randomUUID().toString(), placedAt, "k1", "c-1", List.of(new OrderItem("ramen", 1)),
                "1 Mill Lane", null, OrderEvent.ORIGIN_IMPORT, "test", 0);
    }
}
