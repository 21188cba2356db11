package dev.lunchrush.kitchenscreen;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;

import dev.lunchrush.testing.ReaderCountsAtStartTests;

/** The screen's counters at 0 from its start, its listeners off ({@link ReaderCountsAtStartTests}). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "lunchrush.order-service.url=http://127.0.0.1:1",
    "lunchrush.rabbitmq.listen=false",
    "lunchrush.kafka.listen=false"})
class StartMetricsTests extends ReaderCountsAtStartTests {

    StartMetricsTests() {
        super("kitchen-screen", List.of("shared-queue", "own-queue", "kafka"));
    }
}
