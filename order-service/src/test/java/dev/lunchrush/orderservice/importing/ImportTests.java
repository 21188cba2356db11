package dev.lunchrush.orderservice.importing;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceTests;
import dev.lunchrush.orderservice.OrdersTopic;

import static dev.lunchrush.orderservice.importing.ImportBodies.array;
import static dev.lunchrush.orderservice.importing.ImportBodies.order;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin import of past orders into the real Kafka topic: timestamps, validation, all or nothing
 * (one transaction per batch, read as the readers read: committed records only), written once per
 * Idempotency-Key.
 */
class ImportTests extends OrderServiceTests {

    @Test
    void pastOrdersLandInTheLogWithTheirOwnTimestamps() {
        String customer = "c-import-" + UUID.randomUUID();
        Instant yesterdayNoon = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(Duration.ofHours(12));
        List<Instant> times = List.of(yesterdayNoon, yesterdayNoon.plusMillis(1), Instant.now().minus(Duration.ofDays(13)));

        HttpResponse<String> response = importOrders(array(times.stream().map(t -> order(t.toString(), customer, "pad-thai")).toList()));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(json(response.body()).get("imported").intValue()).isEqualTo(3);
        List<ConsumerRecord<String, byte[]>> records = OrdersTopic.readAll(event -> event.customerId().equals(customer));
        assertThat(records).hasSize(3);
        assertThat(records).extracting(ConsumerRecord::timestamp).containsExactlyInAnyOrderElementsOf(
                times.stream().map(t -> t.truncatedTo(ChronoUnit.MILLIS).toEpochMilli()).toList());
        for (ConsumerRecord<String, byte[]> record : records) {
            OrderEvent event = OrderEventCodec.decode(record.value());
            assertThat(record.key()).isEqualTo("k3");
            assertThat(event.placedAt().toEpochMilli()).isEqualTo(record.timestamp());
            assertThat(event.origin()).isEqualTo(OrderEvent.ORIGIN_IMPORT);
            assertThat(event.sequence()).isZero();
        }
    }

    @Test
    void oneBadOrderAndNothingIsWrittenEveryErrorNamed() {
        String customer = "c-import-" + UUID.randomUUID();
        String past = Instant.now().minus(Duration.ofHours(3)).toString();
        String body = array(List.of(
                order(past, customer, "pad-thai"),
                order(Instant.now().minus(Duration.ofDays(15)).toString(), customer, "pad-thai"),
                order(past, customer, "margherita"),
                order(Instant.now().plus(Duration.ofHours(1)).toString(), customer, "pad-thai"),
                order("last thursday", customer, "pad-thai"),
                order(past, customer, "pad-thai").replace("{\"placedAt\"", "{\"price\":3,\"placedAt\"")));

        HttpResponse<String> response = importOrders(body);

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        List<String> fields = new ArrayList<>();
        json(response.body()).get("errors").forEach(error -> fields.add(error.get("field").stringValue()));
        assertThat(fields).containsExactlyInAnyOrder("[1].placedAt", "[2].items[0].dish", "[3].placedAt", "[4].placedAt",
                "[5].price");
        assertThat(OrdersTopic.readAll(event -> event.customerId().equals(customer))).isEmpty();
    }

    @Test
    void moreThanAThousandIs400() {
        String order = order(Instant.now().minus(Duration.ofHours(1)).toString(), "c-1", "pad-thai");
        List<String> orders = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            orders.add(order);
        }

        HttpResponse<String> response = importOrders(array(orders));

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode error = json(response.body()).get("errors").get(0);
        assertThat(error.get("message").stringValue()).contains("1000");
    }

    @Test
    void aBatchIsOneTransactionOneRefusedOrderAndNoneOfItIsReadAndTheRetryWritesItOnce() throws Exception {
        String customer = "c-import-" + UUID.randomUUID();
        String past = Instant.now().minus(Duration.ofHours(2)).toString();
        List<String> orders = new ArrayList<>();
        // the small orders on other partitions than the large one (keys k1, k2; k3), so that the broker takes them
        for (int i = 0; i < 5; i++) {
            orders.add(i % 2 == 0 ? order(past, customer, "margherita").replace("\"k3\"", "\"k1\"")
                    : order(past, customer, "ramen").replace("\"k3\"", "\"k2\""));
        }
        // one order larger than the topic takes for a while: the broker refuses that record alone
        orders.add(order(past, customer, "pad-thai").replace("\"imported\"", "\"" + "x".repeat(3500) + "\""));
        String body = array(orders);
        String key = "backfill-" + UUID.randomUUID();

        HttpResponse<String> refused;
        try (OrdersTopic.MaxMessageBytes limit = OrdersTopic.limitMessageBytes(3000)) {
            refused = importOrders(body, key);
        }

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.body()).contains("none of it is in the log");
        // the five orders the broker did take are in an aborted transaction: a reader sees none
        assertThat(OrdersTopic.readAll(event -> event.customerId().equals(customer))).isEmpty();

        HttpResponse<String> retried = importOrders(body, key);
        HttpResponse<String> again = importOrders(body, key);

        assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
        assertThat(json(retried.body()).get("imported").intValue()).isEqualTo(6);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        assertThat(again.body()).isEqualTo(retried.body());
        assertThat(OrdersTopic.readAll(event -> event.customerId().equals(customer))).as("written once").hasSize(6);
    }

    @Test
    void anImportKeyUsedForAnotherBatchIs422AndWritesNothing() {
        String customer = "c-import-" + UUID.randomUUID();
        String past = Instant.now().minus(Duration.ofHours(2)).toString();
        String key = "backfill-" + UUID.randomUUID();

        HttpResponse<String> first = importOrders(array(List.of(order(past, customer, "pad-thai"))), key);
        HttpResponse<String> other = importOrders(array(List.of(order(past, customer, "pad-thai"),
                order(past, customer, "pad-thai"))), key);

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(other.statusCode()).isEqualTo(422);
        assertThat(json(other.body()).get("errors").get(0).get("field").stringValue()).isEqualTo("Idempotency-Key");
        assertThat(OrdersTopic.readAll(event -> event.customerId().equals(customer))).hasSize(1);
    }

    @Test
    void onlyTheAdminMayImport() {
        String body = array(List.of(order(Instant.now().minus(Duration.ofHours(1)).toString(), "c-1", "pad-thai")));
        HttpResponse<String> anonymous = send(HttpRequest.newBuilder(uri("/admin/orders/import"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
        HttpResponse<String> viewer = send(HttpRequest.newBuilder(uri("/admin/orders/import"))
                .header("Content-Type", "application/json").header("Authorization", basic("viewer", VIEWER_PASSWORD))
                .POST(HttpRequest.BodyPublishers.ofString(body)));

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(viewer.statusCode()).isEqualTo(403);
    }

    @Test
    void theAdminIsToldTheRoomLeftOnTheDisksOfTheLog() throws Exception {
        HttpResponse<String> anonymous = send(HttpRequest.newBuilder(uri("/admin/orders/import/room")).GET());
        HttpResponse<String> room = send(HttpRequest.newBuilder(uri("/admin/orders/import/room"))
                .header("Authorization", basic("admin", ADMIN_PASSWORD)).GET());

        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(room.statusCode()).as(room.body()).isEqualTo(200);
        JsonNode body = json(room.body());
        assertThat(body.get("topic").stringValue()).isEqualTo(Topology.ORDERS_TOPIC);
        int partitions = 0;
        for (JsonNode dir : body.get("logDirs")) {
            long usable = dir.get("usableBytes").longValue();
            assertThat(usable).as(dir.toString()).isPositive().isLessThanOrEqualTo(dir.get("totalBytes").longValue());
            partitions += dir.get("partitions").intValue();
            Path path = Path.of(dir.get("path").stringValue());
            if (Files.isDirectory(path)) {
                // the tests' broker in this JVM: its disk is this machine's
                long free = Files.getFileStore(path).getUsableSpace();
                assertThat((double) usable).as(dir.toString()).isCloseTo(free, org.assertj.core.data.Percentage.withPercentage(5));
            }
        }
        // one broker in the tests, a replica of each partition
        assertThat(partitions).isEqualTo(Topology.ORDERS_PARTITIONS);
    }
}
