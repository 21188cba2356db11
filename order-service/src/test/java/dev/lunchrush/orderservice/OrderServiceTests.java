package dev.lunchrush.orderservice;

import java.nio.file.Path;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.TestBrokers;

/**
 * The whole order service on a random port against the real brokers of {@link TestBrokers}. Every
 * test class that extends it shares one application context (same configuration), so the suite
 * starts the service once; tests set the act they need and measure differences, not absolutes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class OrderServiceTests extends OrderServiceHttp {

    protected static final Path DATA_DIR = temporaryFolder("order-service-data");

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        TestBrokers.register(registry);
        registry.add("lunchrush.data-dir", DATA_DIR::toString);
        registry.add("lunchrush.feed.block-timeout", () -> "500ms");
        registry.add("lunchrush.output-timeout", () -> "3s");
        // done SMS tasks remembered for a day, less than the log keeps orders: SmsRelayTests resets the relay past it
        registry.add("lunchrush.store.notifications-retention", () -> "24h");
    }
}
