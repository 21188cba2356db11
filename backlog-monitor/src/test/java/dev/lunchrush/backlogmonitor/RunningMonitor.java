package dev.lunchrush.backlogmonitor;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.TestBrokers;

/**
 * The one running monitor that the whole-application tests share: a test class that implements this has the same
 * configuration as every other, so Spring's test context cache hands them all one application rather than starting
 * (and pausing, and resuming) one for each. The monitor polls Kafka every 300 ms, asks for new consumer groups every
 * second, and asks RabbitMQ every second (its management API refreshes its figures every few seconds by itself), so
 * that a test sees what it did without waiting out the production intervals.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"lunchrush.backlog.poll-interval=300ms", "lunchrush.backlog.kafka.metadata-refresh=1s",
            "lunchrush.backlog.rabbitmq.poll-interval=1s", "logging.level.kafka=WARN", "logging.level.org.apache.kafka=WARN",
            "logging.level.state.change.logger=WARN"})
interface RunningMonitor {

    @DynamicPropertySource
    static void brokers(DynamicPropertyRegistry registry) {
        TestBrokers.register(registry);
    }
}
