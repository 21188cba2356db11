package dev.lunchrush.scenarios;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import dev.lunchrush.events.Topology;
import dev.lunchrush.testing.RabbitBroker;
import dev.lunchrush.testing.TestBrokers;

/**
 * The brokers from {@link TestBrokers}, with a fallback for its last resort while that one fails on
 * this machine (its management calls go out as HTTP/2 upgrades that the local RabbitMQ drops; its
 * in-process Kafka sets listeners that Kafka 4.1's test kit refuses). The fallback gives the same
 * thing, real brokers: a virtual host of this run's own on the local RabbitMQ, and an in-process KRaft
 * broker with the kit's own listeners. Once TestBrokers answers, it is used as is.
 */
final class ScenarioBrokers {

    private static final Logger log = LoggerFactory.getLogger(ScenarioBrokers.class);
    private static final URI LOCAL_MANAGEMENT = URI.create("http://127.0.0.1:15672");

    private static RabbitBroker rabbit;
    private static String kafka;

    private ScenarioBrokers() {
    }

    /** The settings as environment variables, for services started as child processes. */
    static Map<String, String> environment() {
        RabbitBroker broker = rabbit();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SPRING_RABBITMQ_HOST", broker.host());
        env.put("SPRING_RABBITMQ_PORT", String.valueOf(broker.port()));
        env.put("SPRING_RABBITMQ_USERNAME", broker.username());
        env.put("SPRING_RABBITMQ_PASSWORD", broker.password());
        env.put("SPRING_RABBITMQ_VIRTUAL_HOST", broker.virtualHost());
        env.put("LUNCHRUSH_RABBITMQ_MANAGEMENT_URI", broker.managementUri().toString());
        env.put("SPRING_KAFKA_BOOTSTRAP_SERVERS", kafkaBootstrapServers());
        return env;
    }

    static synchronized RabbitBroker rabbit() {
        if (rabbit == null) {
            try {
                rabbit = TestBrokers.rabbit();
            }
            catch (IllegalStateException ex) {
                log.warn("TestBrokers has no RabbitMQ ({}); using a virtual host of this run on 127.0.0.1", ex.getMessage());
                String vhost = "lunchrush-scenario-" + UUID.randomUUID().toString().substring(0, 8);
                String name = URLEncoder.encode(vhost, StandardCharsets.UTF_8);
                management("PUT", "/api/vhosts/" + name, "{}");
                management("PUT", "/api/permissions/" + name + "/guest", "{\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> management("DELETE", "/api/vhosts/" + name, null)));
                rabbit = new RabbitBroker("127.0.0.1", 5672, "guest", "guest", vhost, LOCAL_MANAGEMENT);
            }
        }
        return rabbit;
    }

    static synchronized String kafkaBootstrapServers() {
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

    private static void management(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(LOCAL_MANAGEMENT.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("guest:guest".getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IllegalStateException("RabbitMQ management " + method + " " + path + " answered "
                        + response.statusCode() + ": " + response.body());
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("""
                    No RabbitMQ for the tests: its management API at %s did not answer. Start RabbitMQ on \
                    127.0.0.1:5672 with the management plugin, or set LUNCHRUSH_TEST_RABBITMQ_URI.""".formatted(LOCAL_MANAGEMENT), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
