package dev.lunchrush.kitchenscreen;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.context.DynamicPropertyRegistry;

import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.TestBrokers;

/**
 * RabbitMQ for these tests from {@link TestBrokers}; where its management call fails (the JDK client
 * offers an HTTP/2 upgrade that the RabbitMQ management listener answers by closing the connection),
 * the same local fallback done over HTTP/1.1: a virtual host of this run's own on 127.0.0.1:5672.
 */
final class TestBrokerFallbacks {

    private static String vhost;
    private static String kafka;

    private TestBrokerFallbacks() {
    }

    static synchronized void register(DynamicPropertyRegistry registry) {
        try {
            TestBrokers.registerRabbit(registry);
            return;
        }
        catch (IllegalStateException ex) {
            if (!String.valueOf(ex.getMessage()).contains("management API")) {
                throw ex;
            }
        }
        if (vhost == null) {
            String name = "lunchrush-test-" + UUID.randomUUID().toString().substring(0, 8);
            send("PUT", "/api/vhosts/" + name, "{}");
            send("PUT", "/api/permissions/" + name + "/guest", "{\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> send("DELETE", "/api/vhosts/" + name, null)));
            vhost = name;
        }
        String name = vhost;
        registry.add("spring.rabbitmq.host", () -> "127.0.0.1");
        registry.add("spring.rabbitmq.port", () -> 5672);
        registry.add("spring.rabbitmq.username", () -> "guest");
        registry.add("spring.rabbitmq.password", () -> "guest");
        registry.add("spring.rabbitmq.virtual-host", () -> name);
    }

    /**
     * Kafka from {@link TestBrokers}; where its in-process broker does not start (listeners overridden
     * without a security protocol map), an in-process KRaft broker with spring-kafka-test's own listeners.
     */
    static synchronized void registerKafka(DynamicPropertyRegistry registry) {
        String servers = kafkaBootstrapServers();
        registry.add("spring.kafka.bootstrap-servers", () -> servers);
    }

    static synchronized String kafkaBootstrapServers() {
        if (kafka == null) {
            try {
                kafka = TestBrokers.kafkaBootstrapServers();
            }
            catch (IllegalStateException ex) {
                EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, Topology.ORDERS_PARTITIONS);
                broker.brokerProperty("auto.create.topics.enable", "false");
                broker.afterPropertiesSet();
                Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy));
                kafka = broker.getBrokersAsString();
            }
        }
        return kafka;
    }

    private static void send(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:15672" + path))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("guest:guest".getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException("RabbitMQ management " + method + " " + path + ": " + response.statusCode());
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("RabbitMQ management API on 127.0.0.1:15672 did not answer", ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
