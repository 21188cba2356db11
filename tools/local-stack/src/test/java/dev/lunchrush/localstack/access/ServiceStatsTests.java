package dev.lunchrush.localstack.access;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ServiceStatsTests {

    @Test
    void theOrderServicesStatsAreReadWithTheirFeedAndHeap() {
        OrderStats stats = OrderStats.of(ServiceClient.JSON.readTree("""
                {"act": "memory-feed", "strategy": "drop", "run": "r-1", "placed": 1200,
                 "feed": {"buffered": 10, "bufferedBytes": 10240, "delivered": 1180, "dropped": 7, "rejected": 3},
                 "heap": {"usedBytes": 50000000, "usedAfterGcBytes": 40000000, "maxBytes": 136000000,
                          "oldGenerationMaxBytes": 120000000}}"""));

        assertThat(stats).isEqualTo(new OrderStats("memory-feed", "drop", "r-1", 1200,
                new OrderStats.Feed(10, 10240, 1180, 7, 3), new OrderStats.Heap(50_000_000, 40_000_000, 136_000_000, 120_000_000)));
        assertThat(OrderStats.of(ServiceClient.JSON.readTree("{}")).feed().buffered()).isZero();
    }

    @Test
    void aReadersStatsKeepTheirSourcesInOrderAndMarkWhatTheyLack() {
        ReaderStats kitchen = ReaderStats.of(ServiceClient.JSON.readTree("""
                {"received": {"shared-queue": 5, "own-queue": 0, "kafka": 40}, "total": 45, "missing": 2,
                 "deadLettered": 1, "duplicatesIgnored": 4}"""));
        ReaderStats dashboard = ReaderStats.of(ServiceClient.JSON.readTree("""
                {"received": {"feed": 9}, "total": 9, "capacityPerSecond": 250, "deadLettered": 0}"""));

        assertThat(kitchen.received()).containsExactly(Map.entry("shared-queue", 5L), Map.entry("own-queue", 0L),
                Map.entry("kafka", 40L));
        assertThat(kitchen.received("kafka")).isEqualTo(40);
        assertThat(kitchen.received("feed")).isZero();
        assertThat(kitchen.missing()).isEqualTo(2);
        assertThat(kitchen.capacityPerSecond()).isEqualTo(-1);
        assertThat(kitchen.duplicatesIgnored()).isEqualTo(4);
        assertThat(dashboard.missing()).isEqualTo(-1);
        assertThat(dashboard.capacityPerSecond()).isEqualTo(250);
    }

    @Test
    void theOrderServiceClientNamesItsEndpoints() {
        OrderServiceClient client = new OrderServiceClient(URI.create("http://localhost:8080/"), () -> "");
        assertThat(client.orders()).isEqualTo(URI.create("http://localhost:8080/orders"));
        assertThat(client.menu()).isEqualTo(URI.create("http://localhost:8080/menu"));
        assertThat(client.http().name()).isEqualTo(OrderServiceClient.NAME);
    }
}
