package dev.lunchrush.orderservice.publishing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * Appends orders to the log: key = kitchen id (each kitchen's orders stay in order in one partition),
 * record timestamp = placedAt. The returned future completes with the broker's ack (acks=all,
 * idempotent producer), on the producer's I/O thread; nobody waits for it on a thread of its own. A
 * dead or frozen broker fails it with a 503 problem within the configured bounds.
 */
@Component
public class KafkaOrderPublisher {

    private static final Logger log = LoggerFactory.getLogger(KafkaOrderPublisher.class);

    private final KafkaTemplate<String, OrderEvent> kafka;
    private final KafkaTopology topics;
    private final long timeoutMillis;

    KafkaOrderPublisher(KafkaTemplate<String, OrderEvent> kafka, KafkaTopology topics, KafkaSettings settings) {
        this.kafka = kafka;
        this.topics = topics;
        this.timeoutMillis = settings.sendTimeout().toMillis();
    }

    public CompletableFuture<Void> publish(OrderEvent event) {
        if (topics.created()) {
            return send(event);
        }
        return topics.ensureTopicsInBackground().thenCompose(created -> created ? send(event)
                : CompletableFuture.failedFuture(ProblemException.unavailable("Kafka is not reachable: the topic "
                        + Topology.ORDERS_TOPIC + " could not be created")));
    }

    private CompletableFuture<Void> send(OrderEvent event) {
        CompletableFuture<?> sent;
        try {
            sent = kafka.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, null, event.placedAt().toEpochMilli(),
                    event.kitchenId(), event));
        }
        catch (KafkaException | org.apache.kafka.common.KafkaException ex) {
            log.warn("could not send to Kafka: {}", ex.getMessage());
            return CompletableFuture.failedFuture(ProblemException.unavailable("Kafka did not take the order: " + ex.getMessage()));
        }
        return sent.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).handle((result, failure) -> {
            if (failure == null) {
                return null;
            }
            Throwable cause = ProblemException.unwrap(failure);
            if (cause instanceof TimeoutException) {
                log.warn("no ack from Kafka within {} ms", timeoutMillis);
                throw ProblemException.unavailable("Kafka did not acknowledge within " + timeoutMillis + " ms");
            }
            String reason = cause.getCause() == null ? cause.getMessage() : cause.getCause().getMessage();
            log.warn("Kafka did not acknowledge: {}", reason);
            throw ProblemException.unavailable("Kafka did not acknowledge the order: " + reason);
        });
    }
}
