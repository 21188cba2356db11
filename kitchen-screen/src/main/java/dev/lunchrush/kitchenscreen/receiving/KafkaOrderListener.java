package dev.lunchrush.kitchenscreen.receiving;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.UnstorableOrderException;
import dev.lunchrush.support.kafka.KafkaDeadLetters;
import dev.lunchrush.support.kafka.KafkaTraceHeaders;
import dev.lunchrush.support.tracing.OrderTraces;
import dev.lunchrush.support.receiving.ReceivingProperties;

/**
 * Reads the log in group {@code kitchen-screen}, a batch at a time. The batch is recorded as shown in
 * one journal write before the container commits its offsets to Kafka; a restart that gets
 * some records again finds their ids already shown and ignores them. Poison, and an order the journal cannot
 * take, is dead-lettered with its reason. Each traced order gets a span of its handling ({@link OrderTraces}), and
 * the screen links to its trace.
 */
@Component
class KafkaOrderListener {

    private final KitchenScreen screen;
    private final ReceivingProperties.Kafka kafka;

    private final OrderTraces traces;

    KafkaOrderListener(KitchenScreen screen, ReceivingProperties receiving, OrderTraces traces) {
        this.screen = screen;
        this.kafka = receiving.kafka();
        this.traces = traces;
    }

    /** The log this listener reads ({@code lunchrush.kafka.topic}); public for its annotation's {@code __listener}. */
    public String topic() {
        return kafka.topic();
    }

    /** Whether this listener starts ({@code lunchrush.kafka.listen}); public for its annotation's {@code __listener}. */
    public boolean listening() {
        return kafka.listen();
    }

    @KafkaListener(id = "kitchen-screen-kafka", topics = "#{__listener.topic()}",
            groupId = "${spring.kafka.consumer.group-id:" + Topology.KITCHEN_GROUP + "}",
            autoStartup = "#{__listener.listening()}")
    void onRecords(List<ConsumerRecord<String, OrderEvent>> records) {
        try (OrderTraces.Received received = traces.received("kitchen-screen", Source.KAFKA, records, KafkaTraceHeaders.RECORD)) {
            try {
                show(records, received);
            }
            catch (RuntimeException ex) {
                received.failed(ex);
                throw ex;
            }
        }
    }

    private void show(List<ConsumerRecord<String, OrderEvent>> records, OrderTraces.Received received) {
        List<OrderEvent> events = new ArrayList<>(records.size());
        Map<String, String> traced = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<String, OrderEvent> record = records.get(i);
            if (record.value() == null) {
                // show what came before the poison, then let the error handler dead-letter it and go on
                show(records, events, traced);
                throw KafkaDeadLetters.poison(record, i);
            }
            events.add(record.value());
            String trace = received.sampledTraceId(i);
            if (trace != null) {
                traced.put(record.value().orderId(), trace);
            }
        }
        show(records, events, traced);
    }

    /** {@code events}: the first records of {@code records}, decoded; an order the journal refuses is dead-lettered. */
    private void show(List<ConsumerRecord<String, OrderEvent>> records, List<OrderEvent> events, Map<String, String> traced) {
        try {
            screen.accept(Source.KAFKA, events, traced);
        }
        catch (UnstorableOrderException ex) {
            throw KafkaDeadLetters.unstorable(records.get(ex.index()), ex.index(), ex);
        }
    }
}
