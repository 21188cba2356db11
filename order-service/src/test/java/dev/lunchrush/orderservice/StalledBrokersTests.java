package dev.lunchrush.orderservice;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.lunchrush.testing.KafkaBrokerProcess;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.TestBrokers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole order service against brokers that a test can make stand still at the worst moment: a real Kafka broker
 * in a process of its own ({@code SIGSTOP}, {@code SIGCONT}; {@link AtCommit} freezes or kills it at a
 * transaction's commit), and the test run's RabbitMQ behind a {@link HoldingProxy}, which holds what this service
 * sends so that a confirm comes late for it alone. Short deadlines (output 1 s, Kafka send 2 s, the producer's
 * delivery 4 s, import 8 s), so that a stall outlasts them. The SMS relay and workers are off (the workers of the other tests' service share the
 * queue). Every class that extends it shares one service, apart from {@link OrderServiceTests}'s, with a data
 * folder of its own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class StalledBrokersTests extends OrderServiceHttp {

    protected static final KafkaBrokerProcess KAFKA = KafkaBrokerProcess.start(
            Path.of("target", "stalled-kafka-" + UUID.randomUUID()));
    protected static final HoldingProxy RABBIT = HoldingProxy.to(TestBrokers.rabbit().host(), TestBrokers.rabbit().port());

    private static final Path STALLED_DATA_DIR = temporaryFolder("order-service-stalled");

    @DynamicPropertySource
    static void stallableBrokers(DynamicPropertyRegistry registry) {
        RabbitBroker rabbit = TestBrokers.rabbit();
        registry.add("spring.rabbitmq.host", () -> "127.0.0.1");
        registry.add("spring.rabbitmq.port", RABBIT::port);
        registry.add("spring.rabbitmq.username", rabbit::username);
        registry.add("spring.rabbitmq.password", rabbit::password);
        registry.add("spring.rabbitmq.virtual-host", rabbit::virtualHost);
        registry.add("lunchrush.rabbitmq.management-uri", () -> rabbit.managementUri().toString());
        registry.add("spring.kafka.bootstrap-servers", KAFKA::bootstrapServers);
        registry.add("lunchrush.data-dir", STALLED_DATA_DIR::toString);
        registry.add("lunchrush.output-timeout", () -> "1s");
        registry.add("lunchrush.kafka.send-timeout", () -> "2s");
        // the producer gives up on a record after 4 s (the service's default is 8 s, under its 9 s send timeout)
        registry.add("spring.kafka.producer.properties.delivery.timeout.ms", () -> "4000");
        registry.add("lunchrush.kafka.import-timeout", () -> "8s");
        registry.add("lunchrush.notifications.workers-enabled", () -> "false");
        registry.add("lunchrush.notifications.relay-enabled", () -> "false");
        registry.add("spring.kafka.producer.properties.interceptor.classes", AtCommit.class::getName);
    }

    /** A question to RabbitMQ over a connection of its own, not through the proxy that may be holding this service's. */
    protected static <T> T atTheBroker(ChannelCallable<T> question) {
        try (Connection connection = TestBrokers.rabbit().connectionFactory().newConnection();
                Channel channel = connection.createChannel()) {
            return question.call(channel);
        }
        catch (IOException | TimeoutException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** What {@link #atTheBroker} asks. */
    protected interface ChannelCallable<T> {

        T call(Channel channel) throws IOException;
    }

    /**
     * {@code request} sent again every half second until it is answered {@code wanted} (503 meanwhile, while the
     * broker comes back or the first attempt's outcome is still unknown), within a minute; that answer.
     */
    protected static HttpResponse<String> sentAgainUntil(int wanted, Supplier<HttpResponse<String>> request) {
        List<HttpResponse<String>> answers = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
            HttpResponse<String> answer = request.get();
            answers.add(answer);
            assertThat(answer.statusCode()).as(answer.body()).isIn(wanted, 503);
            return answer.statusCode() == wanted;
        });
        return answers.get(answers.size() - 1);
    }
}
