package dev.lunchrush.analyticsdashboard;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.ReaderCountsAtStart;
import dev.lunchrush.testing.ServiceTestSetup;

/** The dashboard's counters at 0 from its start, its sources off ({@link ReaderCountsAtStart}). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.order-service.url=http://127.0.0.1:1",
    "lunchrush.rabbitmq.listen=false",
    "lunchrush.kafka.listen=false",
    "lunchrush.feed.enabled=false"})
class StartMetricsTests {

    @LocalServerPort
    private int port;

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        ServiceTestSetup.register(registry, "reader-start");
    }

    @Test
    void receivedAndDeadLetteredExistAtZeroForEverySourceFromTheStart() {
        ReaderCountsAtStart.assertExportedAtZero(port, "analytics-dashboard", List.of("shared-queue", "own-queue", "feed", "kafka"));
    }
}
