package dev.lunchrush.analyticsdashboard;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;

import dev.lunchrush.testing.ReaderCountsAtStartTests;

/** The dashboard's counters at 0 from its start, its sources off ({@link ReaderCountsAtStartTests}). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.order-service.url=http://127.0.0.1:1",
    "lunchrush.rabbitmq.listen=false",
    "lunchrush.kafka.listen=false",
    "lunchrush.feed.enabled=false"})
class StartMetricsTests extends ReaderCountsAtStartTests {

    StartMetricsTests() {
        super("analytics-dashboard", List.of("shared-queue", "own-queue", "feed", "kafka"));
    }
}
