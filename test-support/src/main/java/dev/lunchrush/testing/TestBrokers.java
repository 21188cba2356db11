package dev.lunchrush.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.rabbitmq.RabbitMQContainer;

import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.test.context.DynamicPropertyRegistry;

import dev.lunchrush.events.Topology;

/**
 * The one place tests get their brokers from, in this order:
 * <ol>
 * <li>environment variables: {@code LUNCHRUSH_TEST_RABBITMQ_URI} (amqp://user:pass@host:port/vhost,
 * with {@code LUNCHRUSH_TEST_RABBITMQ_MANAGEMENT_URL} optional) and
 * {@code LUNCHRUSH_TEST_KAFKA_BOOTSTRAP_SERVERS};</li>
 * <li>Testcontainers, where a Docker engine answers;</li>
 * <li>the RabbitMQ on 127.0.0.1:5672 (guest/guest), in a virtual host of this test run's own so that
 * runs never see each other's queues, and an in-process KRaft Kafka broker (spring-kafka-test).</li>
 * </ol>
 * A broker test never passes by being skipped: when no broker can be had, it fails and says how to get one.
 */
public final class TestBrokers {

    private static final Logger log = LoggerFactory.getLogger(TestBrokers.class);

    private static final String RABBIT_IMAGE = "rabbitmq:4.1-management";
    private static final String KAFKA_IMAGE = "apache/kafka:4.1.2";
    private static final int PROMETHEUS_PORT = 15692;

    private static RabbitBroker rabbit;
    private static String kafkaBootstrapServers;
    private static Boolean dockerAvailable;

    private TestBrokers() {
    }

    /** Registers {@code spring.rabbitmq.*} and {@code spring.kafka.bootstrap-servers}. */
    public static void register(DynamicPropertyRegistry registry) {
        registerRabbit(registry);
        registerKafka(registry);
    }

    public static void registerRabbit(DynamicPropertyRegistry registry) {
        RabbitBroker broker = rabbit();
        registry.add("spring.rabbitmq.host", broker::host);
        registry.add("spring.rabbitmq.port", broker::port);
        registry.add("spring.rabbitmq.username", broker::username);
        registry.add("spring.rabbitmq.password", broker::password);
        registry.add("spring.rabbitmq.virtual-host", broker::virtualHost);
        registry.add("lunchrush.rabbitmq.management-uri", () -> broker.managementUri().toString());
    }

    public static void registerKafka(DynamicPropertyRegistry registry) {
        String servers = kafkaBootstrapServers();
        registry.add("spring.kafka.bootstrap-servers", () -> servers);
    }

    /** The same settings as environment variables, for services started as child processes. */
    public static Map<String, String> environment() {
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

    public static synchronized RabbitBroker rabbit() {
        if (rabbit == null) {
            rabbit = findRabbit();
            log.info("tests use RabbitMQ at {}:{} vhost '{}'", rabbit.host(), rabbit.port(), rabbit.virtualHost());
        }
        return rabbit;
    }

    public static synchronized String kafkaBootstrapServers() {
        if (kafkaBootstrapServers == null) {
            kafkaBootstrapServers = findKafka();
            log.info("tests use Kafka at {}", kafkaBootstrapServers);
        }
        return kafkaBootstrapServers;
    }

    private static RabbitBroker findRabbit() {
        String uri = System.getenv("LUNCHRUSH_TEST_RABBITMQ_URI");
        if (uri != null && !uri.isBlank()) {
            return fromUri(URI.create(uri), System.getenv("LUNCHRUSH_TEST_RABBITMQ_MANAGEMENT_URL"),
                    System.getenv("LUNCHRUSH_TEST_RABBITMQ_PROMETHEUS_URL"));
        }
        if (dockerAvailable()) {
            RabbitMQContainer container = new RabbitMQContainer(RABBIT_IMAGE);
            // the image runs the rabbitmq_prometheus plugin: its exporter is scraped by the tests too
            container.addExposedPort(PROMETHEUS_PORT);
            container.start();
            return new RabbitBroker(container.getHost(), container.getAmqpPort(), container.getAdminUsername(),
                    container.getAdminPassword(), "/", URI.create(container.getHttpUrl()),
                    URI.create("http://" + container.getHost() + ":" + container.getMappedPort(PROMETHEUS_PORT)));
        }
        if (!reachable("127.0.0.1", 5672)) {
            throw new IllegalStateException("""
                    No RabbitMQ for the tests. Either set LUNCHRUSH_TEST_RABBITMQ_URI \
                    (amqp://user:password@host:5672/vhost), or start a Docker engine for Testcontainers, \
                    or start RabbitMQ on 127.0.0.1:5672 with guest/guest (rabbitmq-server -detached) \
                    with the management plugin (rabbitmq-plugins enable rabbitmq_management).""");
        }
        URI management = URI.create("http://127.0.0.1:15672");
        if (!reachable("127.0.0.1", 15672)) {
            throw new IllegalStateException("""
                    RabbitMQ runs on 127.0.0.1:5672 but its management API on 15672 does not answer; \
                    tests use it to give each run a virtual host of its own and to read queue depths. \
                    Enable it: rabbitmq-plugins enable rabbitmq_management""");
        }
        String vhost = "lunchrush-test-" + UUID.randomUUID().toString().substring(0, 8);
        RabbitBroker broker = new RabbitBroker("127.0.0.1", 5672, "guest", "guest", vhost, management,
                URI.create("http://127.0.0.1:" + PROMETHEUS_PORT));
        createVirtualHost(broker);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteVirtualHost(broker)));
        return broker;
    }

    private static RabbitBroker fromUri(URI uri, String managementUrl, String prometheusUrl) {
        String[] userInfo = uri.getUserInfo() == null ? new String[] {"guest", "guest"} : uri.getUserInfo().split(":", 2);
        String path = uri.getRawPath();
        String vhost = path == null || path.length() <= 1 ? "/" : URLDecoder.decode(path.substring(1), StandardCharsets.UTF_8);
        int port = uri.getPort() > 0 ? uri.getPort() : 5672;
        URI management = URI.create(managementUrl != null && !managementUrl.isBlank()
                ? managementUrl : "http://" + uri.getHost() + ":15672");
        URI prometheus = URI.create(prometheusUrl != null && !prometheusUrl.isBlank()
                ? prometheusUrl : "http://" + uri.getHost() + ":" + PROMETHEUS_PORT);
        return new RabbitBroker(uri.getHost(), port, userInfo[0], userInfo.length > 1 ? userInfo[1] : "", vhost,
                management, prometheus);
    }

    private static String findKafka() {
        String servers = System.getenv("LUNCHRUSH_TEST_KAFKA_BOOTSTRAP_SERVERS");
        if (servers != null && !servers.isBlank()) {
            return servers;
        }
        if (dockerAvailable()) {
            KafkaContainer container = new KafkaContainer(KAFKA_IMAGE);
            container.start();
            return container.getBootstrapServers();
        }
        try {
            EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, Topology.ORDERS_PARTITIONS);
            broker.brokerProperty("auto.create.topics.enable", "false");
            // one broker: the transaction log (the admin import's batches are transactions) on it alone
            broker.brokerProperty("transaction.state.log.replication.factor", "1");
            broker.brokerProperty("transaction.state.log.min.isr", "1");
            broker.afterPropertiesSet();
            Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy));
            return broker.getBrokersAsString();
        }
        catch (RuntimeException ex) {
            throw new IllegalStateException("""
                    No Kafka for the tests: the in-process KRaft broker did not start (%s). Set \
                    LUNCHRUSH_TEST_KAFKA_BOOTSTRAP_SERVERS to a broker's host:port, or start a Docker engine \
                    for Testcontainers.""".formatted(ex.getMessage()), ex);
        }
    }

    static synchronized boolean dockerAvailable() {
        if (dockerAvailable == null) {
            try {
                dockerAvailable = DockerClientFactory.instance().isDockerAvailable();
            }
            catch (RuntimeException | LinkageError ex) {
                dockerAvailable = false;
            }
        }
        return dockerAvailable;
    }

    private static boolean reachable(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        }
        catch (IOException ex) {
            return false;
        }
    }

    private static void createVirtualHost(RabbitBroker broker) {
        String name = URLEncoder.encode(broker.virtualHost(), StandardCharsets.UTF_8);
        broker.management("PUT", "/api/vhosts/" + name, "{}");
        broker.management("PUT", "/api/permissions/" + name + "/" + broker.username(),
                "{\"configure\":\".*\",\"write\":\".*\",\"read\":\".*\"}");
    }

    private static void deleteVirtualHost(RabbitBroker broker) {
        try {
            broker.management("DELETE", "/api/vhosts/" + URLEncoder.encode(broker.virtualHost(), StandardCharsets.UTF_8), null);
        }
        catch (RuntimeException ex) {
            log.warn("could not delete test vhost {}: {}", broker.virtualHost(), ex.getMessage());
        }
    }
}
