package dev.lunchrush.orderservice.publishing;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * Appends an admin import's batch to the log in one Kafka transaction: every order of the batch is in
 * the log, or none is (the readers read committed records only). A failed or timed-out batch leaves
 * nothing a reader counts, so the client may send it again; with its Idempotency-Key, a batch that
 * was in fact committed is not written a second time ({@code ImportController}).
 *
 * <p>The live orders keep the service's plain idempotent producer: a transaction per order would
 * cost a round trip to the coordinator each, for nothing a single record needs.
 */
@Component
public class KafkaImportPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(KafkaImportPublisher.class);

    /** The producers' transactional ids begin with it; a restarted service fences its old ones. */
    static final String TRANSACTION_ID_PREFIX = "order-service-import-";

    private final DefaultKafkaProducerFactory<String, OrderEvent> producers;
    private final KafkaTemplate<String, OrderEvent> kafka;
    private final KafkaTopology topics;

    KafkaImportPublisher(ProducerFactory<String, OrderEvent> liveProducers, KafkaTopology topics, KafkaSettings settings) {
        if (!(liveProducers instanceof DefaultKafkaProducerFactory<String, OrderEvent> live)) {
            throw new IllegalStateException("the import needs Spring Kafka's DefaultKafkaProducerFactory, not "
                    + liveProducers.getClass().getName());
        }
        long timeout = settings.importTimeout().toMillis();
        // the whole transaction, commit included, fits in the import's timeout; a batch that takes
        // longer is aborted by the coordinator, never half-committed
        this.producers = (DefaultKafkaProducerFactory<String, OrderEvent>) live.copyWithConfigurationOverride(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, TRANSACTION_ID_PREFIX,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) Math.min(10_000, timeout / 3),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) (timeout * 2 / 3),
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) timeout));
        this.producers.setTransactionIdPrefix(TRANSACTION_ID_PREFIX);
        this.kafka = new KafkaTemplate<>(producers);
        this.topics = topics;
    }

    /** Writes every order in one transaction and commits it; any failure aborts it and answers 503. */
    public void publishAll(List<OrderEvent> events) {
        if (!topics.ensureTopics()) {
            throw ProblemException.unavailable("Kafka is not reachable: the topic " + Topology.ORDERS_TOPIC
                    + " could not be created");
        }
        try {
            kafka.executeInTransaction(operations -> {
                for (OrderEvent event : events) {
                    operations.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, null, event.placedAt().toEpochMilli(),
                            event.kitchenId(), event));
                }
                // the commit flushes and fails if any record of the batch failed
                return null;
            });
        }
        catch (RuntimeException ex) {
            String reason = ex.getCause() == null || ex.getCause() == ex ? ex.getMessage()
                    : ex.getMessage() + ": " + ex.getCause().getMessage();
            log.warn("import of {} orders not committed: {}", events.size(), reason);
            throw ProblemException.unavailable("Kafka did not commit the batch of " + events.size()
                    + " orders (none of it is in the log): " + reason);
        }
    }

    @Override
    public void destroy() {
        producers.destroy();
    }
}
