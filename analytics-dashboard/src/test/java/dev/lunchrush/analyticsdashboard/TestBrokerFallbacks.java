package dev.lunchrush.analyticsdashboard;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.context.DynamicPropertyRegistry;

import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.RabbitBroker;
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
        properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    /** The {@code spring.rabbitmq.*} and {@code spring.kafka.bootstrap-servers} properties. */
    static synchronized Map<String, Object> properties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.kafka.bootstrap-servers", kafkaBootstrapServers());
        try {
            RabbitBroker broker = TestBrokers.rabbit();
            properties.put("spring.rabbitmq.host", broker.host());
            properties.put("spring.rabbitmq.port", broker.port());
            properties.put("spring.rabbitmq.username", broker.username());
            properties.put("spring.rabbitmq.password", broker.password());
            properties.put("spring.rabbitmq.virtual-host", broker.virtualHost());
            return properties;
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
        properties.put("spring.rabbitmq.host", "127.0.0.1");
        properties.put("spring.rabbitmq.port", 5672);
        properties.put("spring.rabbitmq.username", "guest");
        properties.put("spring.rabbitmq.password", "guest");
        properties.put("spring.rabbitmq.virtual-host", vhost);
        return properties;
    }

    /**
     * Kafka from {@link TestBrokers}; where its in-process broker does not start (listeners overridden
     * without a security protocol map), an in-process KRaft broker with spring-kafka-test's own listeners.
     */
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
