package dev.lunchrush.support.readiness;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.kafka.core.KafkaAdmin;

/** The checks of the two brokers, for {@link SourceCheck}. Each kind in a class of its own: a service may lack one client. */
public final class BrokerChecks {

    private BrokerChecks() {
    }

    /** RabbitMQ: the service's own (shared, cached) connection is open, or can be opened. */
    public static final class Rabbit {

        private Rabbit() {
        }

        public static SourceCheck of(ConnectionFactory connectionFactory) {
            return new SourceCheck("rabbitmq", () -> {
                Connection connection = connectionFactory.createConnection();
                if (!connection.isOpen()) {
                    throw new IllegalStateException("connection to " + connectionFactory.getHost() + " is closed");
                }
                return connectionFactory.getHost() + ":" + connectionFactory.getPort();
            });
        }
    }

    /**
     * Kafka: a broker of the cluster describes it. A client of its own per check (closed after it), so that nothing
     * stays on the heap between probes, and one of the service's clients is never disturbed.
     */
    public static final class Kafka {

        private static final int TIMEOUT_MILLIS = 2000;

        private Kafka() {
        }

        public static SourceCheck of(KafkaAdmin admin, String clientId) {
            return new SourceCheck("kafka", () -> {
                Map<String, Object> config = new HashMap<>(admin.getConfigurationProperties());
                config.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId + "-readiness");
                config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MILLIS);
                config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MILLIS);
                try (Admin client = Admin.create(config)) {
                    int brokers = client.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MILLIS))
                            .nodes().get(TIMEOUT_MILLIS + 500L, TimeUnit.MILLISECONDS).size();
                    return brokers + (brokers == 1 ? " broker" : " brokers");
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", ex);
                }
                catch (Exception ex) {
                    throw new IllegalStateException(ex.getMessage(), ex);
                }
            });
        }
    }
}
