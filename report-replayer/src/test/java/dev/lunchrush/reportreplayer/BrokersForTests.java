package dev.lunchrush.reportreplayer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.context.DynamicPropertyRegistry;

import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.TestBrokers;

/**
 * The brokers from {@link TestBrokers}, with a fallback for its last resort while that one fails here
 * (its in-process Kafka sets listeners that Kafka 4.1's test kit refuses; its management calls go
 * out as HTTP/2 upgrades that RabbitMQ 3.10 drops). The fallback gives the same thing, real brokers:
 * an in-process KRaft broker with the kit's own listeners, and a virtual host of this run's own on
 * the local RabbitMQ. Once TestBrokers answers, it is used as is.
 */
public final class BrokersForTests {

    private static final Logger log = LoggerFactory.getLogger(BrokersForTests.class);

    private static final URI MANAGEMENT = URI.create("http://127.0.0.1:15672");

    private static String kafka;
    private static String vhost;

    private BrokersForTests() {
    }

    public static void register(DynamicPropertyRegistry registry) {
        registerRabbit(registry);
        String servers = kafkaBootstrapServers();
        registry.add("spring.kafka.bootstrap-servers", () -> servers);
    }

    public static synchronized String kafkaBootstrapServers() {
        if (kafka == null) {
            try {
                kafka = TestBrokers.kafkaBootstrapServers();
            }
            catch (IllegalStateException ex) {
                log.warn("TestBrokers has no Kafka ({}); starting an in-process KRaft broker", ex.getMessage());
                EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, Topology.ORDERS_PARTITIONS);
                broker.brokerProperty("auto.create.topics.enable", "false");
                broker.afterPropertiesSet();
                Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy));
                kafka = broker.getBrokersAsString();
            }
        }
        return kafka;
    }

    private static synchronized void registerRabbit(DynamicPropertyRegistry registry) {
        if (vhost == null) {
            try {
                TestBrokers.rabbit();
                TestBrokers.registerRabbit(registry);
                return;
            }
            catch (IllegalStateException ex) {
                log.warn("TestBrokers has no RabbitMQ ({}); using a virtual host of this run on 127.0.0.1", ex.getMessage());
                String name = "lunchrush-test-" + UUID.randomUUID().toString().substring(0, 8);
                management("PUT", "/api/vhosts/" + name, "{}");
                management("PUT", "/api/permissions/" + name + "/guest", "{\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> management("DELETE", "/api/vhosts/" + name, null)));
                vhost = name;
            }
        }
        registry.add("spring.rabbitmq.host", () -> "127.0.0.1");
        registry.add("spring.rabbitmq.port", () -> 5672);
        registry.add("spring.rabbitmq.username", () -> "guest");
        registry.add("spring.rabbitmq.password", () -> "guest");
        registry.add("spring.rabbitmq.virtual-host", () -> vhost);
        registry.add("lunchrush.rabbitmq.management-uri", MANAGEMENT::toString);
    }

    private static void management(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(MANAGEMENT.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("guest:guest".getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException(method + " " + path + " answered " + response.statusCode());
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("RabbitMQ management API did not answer", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
