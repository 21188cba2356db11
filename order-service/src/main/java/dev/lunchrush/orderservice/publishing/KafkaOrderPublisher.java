package dev.lunchrush.orderservice.publishing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.KafkaException;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * Appends orders to the log: key = kitchen id (each kitchen's orders stay in order in one partition),
 * record timestamp = placedAt, and waits for the broker's ack (acks=all, idempotent producer) before
 * the caller may answer. A dead or frozen broker gives a 503 within the configured bounds.
 */
@Component
public class KafkaOrderPublisher {

    private static final Logger log = LoggerFactory.getLogger(KafkaOrderPublisher.class);

    private final KafkaTemplate<String, OrderEvent> kafka;
    private final KafkaTopology topics;
    private final KafkaSettings settings;

    KafkaOrderPublisher(KafkaTemplate<String, OrderEvent> kafka, KafkaTopology topics, KafkaSettings settings) {
        this.kafka = kafka;
        this.topics = topics;
        this.settings = settings;
    }

    public void publish(OrderEvent event) {
        publishAll(List.of(event), settings.sendTimeout().toMillis());
    }

    private void publishAll(List<OrderEvent> events, long timeoutMillis) {
        if (!topics.ensureTopics()) {
            throw ProblemException.unavailable("Kafka is not reachable: the topic " + Topology.ORDERS_TOPIC
                    + " could not be created");
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<CompletableFuture<SendResult<String, OrderEvent>>> sends = new ArrayList<>(events.size());
        try {
            for (OrderEvent event : events) {
                sends.add(kafka.send(new ProducerRecord<>(Topology.ORDERS_TOPIC, null, event.placedAt().toEpochMilli(),
                        event.kitchenId(), event)));
            }
            for (CompletableFuture<SendResult<String, OrderEvent>> send : sends) {
                long left = Math.max(0, deadline - System.nanoTime());
                send.get(left, TimeUnit.NANOSECONDS);
            }
        }
        catch (KafkaException | org.apache.kafka.common.KafkaException ex) {
            log.warn("could not send to Kafka: {}", ex.getMessage());
            throw ProblemException.unavailable("Kafka did not take the order: " + ex.getMessage());
        }
        catch (ExecutionException ex) {
            log.warn("Kafka did not acknowledge: {}", ex.getCause() == null ? ex.getMessage() : ex.getCause().getMessage());
            throw ProblemException.unavailable("Kafka did not acknowledge the order: "
                    + (ex.getCause() == null ? ex.getMessage() : ex.getCause().getMessage()));
        }
        catch (TimeoutException ex) {
            log.warn("no ack from Kafka within {} ms", timeoutMillis);
            throw ProblemException.unavailable("Kafka did not acknowledge within " + timeoutMillis + " ms");
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw ProblemException.unavailable("interrupted while waiting for Kafka's ack");
        }
    }
}
