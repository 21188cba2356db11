package dev.lunchrush.orderservice.idempotency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.rabbitmq.client.GetResponse;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.amqp.autoconfigure.ConnectionFactoryCustomizer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.Environment;

import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.OrderServiceApplication;
import dev.lunchrush.orderservice.OrdersTopic;
import dev.lunchrush.orderservice.StalledBrokersTests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An order answered {@code 503 Outcome unknown} whose broker's answer never reaches the service, because the service
 * is stopped and started again on the same data folder before it comes: a retry with its key places no second order.
 * In the log act it gets the order's 201 when the log holds it; in a RabbitMQ act, which cannot be asked, a 409 that
 * names the order. Kafka stands still ({@code SIGSTOP}) through the first service's stop and writes the order when it
 * goes on; RabbitMQ takes the order and its confirm is held by a proxy until the first service has stopped.
 */
class UnknownOutcomeRestartTests extends StalledBrokersTests {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** The RabbitMQ heartbeat of the services this test starts itself. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(3);

    /** The AMQP handshake timeout of the services this test starts itself. */
    private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(4);

    @Autowired
    Environment environment;

    @AfterEach
    void brokersGoOn() {
        RABBIT.release();
        KAFKA.thaw();
        purgeOrderQueues();
    }

    @Test
    void anOrderOfUnknownOutcomeFoundInTheLogAfterARestartIsAnsweredItsCreatedAndPlacedOnce() {
        Path dataDir = temporaryFolder("order-service-unknown-log");
        String customer = "c-unknown-restart-" + UUID.randomUUID();
        String order = validOrder().replace("c-1042", customer);
        String key = UUID.randomUUID().toString();

        try (ConfigurableApplicationContext first = start(dataDir)) {
            int port = port(first);
            act(port, "{\"act\":\"log\"}");
            // the producer and its metadata ready before the broker stands still
            sentAgainUntil(201, () -> post(port, validOrder(), null));
            KAFKA.freeze();
            try {
                assertUnknown(post(port, order, key));
                // stopped while the broker stands still: its answer never reaches this service
                first.close();
            }
            finally {
                KAFKA.thaw();
            }
        }
        // the broker wrote the order it had when it went on
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                .until(() -> !inTheLog(customer).isEmpty());
        String written = OrderEventCodec.decode(inTheLog(customer).get(0).value()).orderId();

        try (ConfigurableApplicationContext second = start(dataDir)) {
            int port = port(second);
            HttpResponse<String> retried = post(port, order, key);
            HttpResponse<String> again = post(port, order, key);

            assertThat(retried.statusCode()).as(retried.body()).isEqualTo(201);
            assertThat(retried.headers().firstValue("Idempotent-Replayed")).hasValue("true");
            assertThat(json(retried.body()).get("orderId").stringValue()).as("the order in the log").isEqualTo(written);
            assertThat(retried.headers().firstValue("Location")).hasValue("/orders/" + written);
            assertThat(again.statusCode()).isEqualTo(201);
            assertThat(again.body()).isEqualTo(retried.body());
        }
        assertThat(inTheLog(customer)).as("orders in the log").hasSize(1);
    }

    @Test
    void anOrderOfUnknownOutcomeAtRabbitMqIsNotPlacedAgainAfterARestart() {
        Path dataDir = temporaryFolder("order-service-unknown-rabbit");
        String key = UUID.randomUUID().toString();
        String refused;

        try (ConfigurableApplicationContext first = start(dataDir)) {
            int port = port(first);
            act(port, "{\"act\":\"shared-queue\"}");
            sentAgainUntil(201, () -> post(port, validOrder(), null));
            purgeOrderQueues();
            RABBIT.holdReplies();
            try {
                // the output timeout is 1 s: RabbitMQ takes the order, its confirm waits in the proxy
                assertUnknown(post(port, validOrder(), key));
                long taken = atTheBroker(channel -> (long) channel.queueDeclarePassive(Topology.SHARED_QUEUE).getMessageCount());
                assertThat(taken).as("the order RabbitMQ took").isEqualTo(1);
                // stopped while the confirm is held: it never reaches this service
                first.close();
            }
            finally {
                RABBIT.release();
            }
        }

        try (ConfigurableApplicationContext second = start(dataDir)) {
            int port = port(second);
            HttpResponse<String> retried = post(port, validOrder(), key);
            HttpResponse<String> again = post(port, validOrder(), key);

            assertThat(retried.statusCode()).as(retried.body()).isEqualTo(409);
            assertThat(retried.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(json(retried.body()).get("title").stringValue()).isEqualTo("Outcome unknown");
            assertThat(json(retried.body()).get("detail").stringValue()).contains("not placed again");
            assertThat(again.statusCode()).isEqualTo(409);
            refused = retried.body();
        }
        assertThat(queueDepth(Topology.SHARED_QUEUE)).as("orders in the queue").isEqualTo(1);
        GetResponse queued = atTheBroker(channel -> channel.basicGet(Topology.SHARED_QUEUE, true));
        assertThat(json(refused).get("detail").stringValue()).as("the answer names the order in the queue")
                .contains(OrderEventCodec.decode(queued.getBody()).orderId());
    }


    private List<ConsumerRecord<String, byte[]>> inTheLog(String customer) {
        return OrdersTopic.readAll(KAFKA.bootstrapServers(), event -> event.customerId().equals(customer));
    }

    private static void assertUnknown(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
        assertThat(json(response.body()).get("title").stringValue()).isEqualTo("Outcome unknown");
    }

    /** The service on {@code dataDir}, with the brokers and short deadlines of the shared one. */
    private ConfigurableApplicationContext start(Path dataDir) {
        // command-line arguments, so that they win over application.yml (server.port 8080 may be taken)
        List<String> args = new ArrayList<>();
        args.add("--server.port=0");
        args.add("--server.address=127.0.0.1");
        args.add("--lunchrush.data-dir=" + dataDir);
        for (String name : List.of("spring.rabbitmq.host", "spring.rabbitmq.port", "spring.rabbitmq.username",
                "spring.rabbitmq.password", "spring.rabbitmq.virtual-host", "spring.kafka.bootstrap-servers",
                "lunchrush.output-timeout", "lunchrush.kafka.send-timeout",
                "spring.kafka.producer.properties.delivery.timeout.ms", "lunchrush.notifications.workers-enabled",
                "lunchrush.notifications.relay-enabled")) {
            args.add("--" + name + "=" + environment.getRequiredProperty(name));
        }
        // a connection whose broker's answers the proxy holds is given up after a few missed heartbeats: a short
        // heartbeat ends the stopping service's connection, and the channel close that waits on it, soon after the
        // hold begins rather than long after (RabbitMQ's heartbeats keep a healthy connection alive meanwhile)
        args.add("--spring.rabbitmq.requested-heartbeat=" + HEARTBEAT.toSeconds() + "s");
        return new SpringApplicationBuilder(OrderServiceApplication.class)
                // the republisher's new connection, while the proxy holds the broker's answers, fails at its handshake
                // timeout, and the stopping service waits for it: short, but far above a healthy handshake's
                .initializers(context -> ((GenericApplicationContext) context).registerBean(ConnectionFactoryCustomizer.class,
                        () -> factory -> factory.setHandshakeTimeout((int) HANDSHAKE_TIMEOUT.toMillis())))
                .run(args.toArray(String[]::new));
    }

    private static int port(ConfigurableApplicationContext context) {
        return context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
    }

    private static HttpResponse<String> post(int port, String order, @Nullable String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(order));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return sendTo(request);
    }

    private static void act(int port, String act) {
        HttpResponse<String> response = sendTo(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/admin/act"))
                .header("Content-Type", "application/json").header("Authorization", basic("admin", ADMIN_PASSWORD))
                .PUT(HttpRequest.BodyPublishers.ofString(act)));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }

    private static HttpResponse<String> sendTo(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
