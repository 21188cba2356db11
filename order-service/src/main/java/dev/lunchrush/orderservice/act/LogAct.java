package dev.lunchrush.orderservice.act;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.publishing.KafkaOrderPublisher;
import dev.lunchrush.orderservice.publishing.KafkaTopology;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Act 4: each order to the Kafka log, keyed by kitchen. Its SMS task is put on the work queue by the SMS relay,
 * which reads the log, not here. Entering the act creates the log's topics if they are not in place yet, off
 * the switching thread; the act is ready once Kafka answers and the topics are in place.
 */
@Component
class LogAct implements ActOutput {

    private final KafkaOrderPublisher kafka;
    private final KafkaTopology topics;
    private final SourceCheck topicsInPlace;

    LogAct(KafkaOrderPublisher kafka, KafkaTopology topics) {
        this.kafka = kafka;
        this.topics = topics;
        this.topicsInPlace = new SourceCheck("kafka-topics", () -> {
            if (!topics.ensureTopicsInBackground().join()) {
                throw new IllegalStateException("the topic " + Topology.ORDERS_TOPIC + " is not in place yet");
            }
            return Topology.ORDERS_TOPIC + " and " + Topology.ORDERS_DEAD_LETTER_TOPIC + " in place";
        });
    }

    @Override
    public CompletableFuture<WrittenOrder> write(ActState state, Supplier<OrderEvent> events) {
        OrderEvent event = events.get();
        return kafka.publish(event).handle((acked, failure) -> WrittenOrder.answered(event, null, failure));
    }

    /** Kafka answers and the log's topics are in place; a stopped RabbitMQ leaves this act ready. */
    @Override
    public List<SourceCheck> needs(OutputChecks checks) {
        return List.of(checks.kafka(), topicsInPlace);
    }

    @Override
    public void entered(ActState state) {
        topics.ensureTopicsInBackground();
    }

    /** The log can be read back for an order: a retry after a lost answer learns whether it was written. */
    @Override
    public boolean canBeAskedForAnOrder() {
        return true;
    }
}
