package dev.lunchrush.kitchenscreen.receiving;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.BatchListenerFailedException;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;

/**
 * Reads the log in group {@code kitchen-screen}, a batch at a time. The batch is recorded as shown in
 * one database transaction before the container commits its offsets to Kafka; a restart that gets
 * some records again finds their ids already shown and ignores them.
 */
@Component
class KafkaOrderListener {

    private static final Logger log = LoggerFactory.getLogger(KafkaOrderListener.class);

    private final KitchenScreen screen;

    KafkaOrderListener(KitchenScreen screen) {
        this.screen = screen;
    }

    @KafkaListener(id = "kitchen-screen-kafka", topics = Topology.ORDERS_TOPIC,
            groupId = "${spring.kafka.consumer.group-id:" + Topology.KITCHEN_GROUP + "}",
            autoStartup = "${lunchrush.kafka.listen:true}")
    void onRecords(List<ConsumerRecord<String, OrderEvent>> records) {
        List<OrderEvent> events = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<String, OrderEvent> record = records.get(i);
            if (record.value() == null) {
                // show what came before the poison, then let the error handler dead-letter it and go on
                screen.accept(Source.KAFKA, events);
                log.warn("poison record at {}-{}@{}", record.topic(), record.partition(), record.offset());
                throw new BatchListenerFailedException("not an order event",
                        new OrderEventFormatException("not an order event at offset " + record.offset(), null), i);
            }
            events.add(record.value());
        }
        screen.accept(Source.KAFKA, events);
    }
}
