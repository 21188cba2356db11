package dev.lunchrush.analyticsdashboard.receiving;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.ConsumerSeekAware;
import org.springframework.stereotype.Component;

import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.kafka.KafkaDeadLetters;

/**
 * Reads the log in group {@code analytics-dashboard}, a poll at a time, at the job's pace: a poll is
 * processed in steps of about 200 ms of the capacity (16 records at 80 events/s, 50 at the default
 * 250/s, a whole poll from 1,250/s), each step with its own offsets, so that the counts move at the
 * job's rate rather than a whole poll ahead of it (250 records are three seconds of a job of 80/s). Exact
 * counts: the offsets that count are the ones stored in the embedded database with the aggregates,
 * in the same transaction; on every partition assignment the consumer is moved to them (or to the
 * log's start where none are stored, or where they were stored for a topic of the same name with another
 * Kafka id: another log), not to Kafka's committed offsets. Kafka's offsets are
 * committed too, after the database, so that the backlog monitor sees the group's progress.
 */
@Component
class KafkaOrderListener implements ConsumerSeekAware {

    private static final Logger log = LoggerFactory.getLogger(KafkaOrderListener.class);

    static final String LISTENER_ID = "analytics-dashboard-kafka";

    private final OrderProcessor processor;
    private final Capacity capacity;
    private final Aggregates aggregates;
    private final KafkaAdmin kafkaAdmin;

    private final String topic;

    KafkaOrderListener(OrderProcessor processor, Capacity capacity, Aggregates aggregates, KafkaAdmin kafkaAdmin,
            @Value("${lunchrush.kafka.topic:" + Topology.ORDERS_TOPIC + "}") String topic) {
        this.processor = processor;
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.kafkaAdmin = kafkaAdmin;
        this.topic = topic;
    }

    @KafkaListener(id = LISTENER_ID, topics = "${lunchrush.kafka.topic:" + Topology.ORDERS_TOPIC + "}",
            groupId = "${spring.kafka.consumer.group-id:" + Topology.ANALYTICS_GROUP + "}",
            autoStartup = "${lunchrush.kafka.listen:true}")
    void onRecords(List<ConsumerRecord<String, OrderEvent>> records) throws InterruptedException {
        List<Incoming> batch = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<String, OrderEvent> record = records.get(i);
            if (record.value() == null) {
                // count what came before the poison, then let the error handler dead-letter it and go on
                processInSteps(batch);
                throw KafkaDeadLetters.poison(record, i);
            }
            batch.add(new Incoming(record.value(), new TopicPartition(record.topic(), record.partition()), record.offset()));
        }
        processInSteps(batch);
    }

    private void processInSteps(List<Incoming> batch) throws InterruptedException {
        int step = Math.max(1, capacity.perSecond() / 5);
        for (int from = 0; from < batch.size(); from += step) {
            processor.process(Source.KAFKA, batch.subList(from, Math.min(batch.size(), from + step)));
        }
    }

    @Override
    public void onPartitionsAssigned(Map<TopicPartition, Long> assignments, ConsumerSeekCallback callback) {
        Map<TopicPartition, Long> stored = storedOffsets();
        List<TopicPartition> fromStart = new ArrayList<>();
        for (TopicPartition partition : assignments.keySet()) {
            Long offset = stored.get(partition);
            if (offset != null) {
                callback.seek(partition.topic(), partition.partition(), offset);
            }
            else {
                // nothing of this partition counted yet: all of it counts, whatever Kafka remembers
                fromStart.add(partition);
            }
        }
        if (!fromStart.isEmpty()) {
            callback.seekToBeginning(fromStart);
        }
        log.info("assigned {}: resuming from stored offsets {}, from the start for {}", assignments.keySet(), stored, fromStart);
    }

    /** The stored offsets, if they are of the log Kafka holds now under the topic's name (its id tells). */
    private Map<TopicPartition, Long> storedOffsets() {
        try {
            TopicDescription description = kafkaAdmin.describeTopics(topic).get(topic);
            return aggregates.storedOffsets(topic, description.topicId().toString());
        }
        catch (KafkaException | org.apache.kafka.common.KafkaException ex) {
            // not known now: the offsets stored are used as they are, as on any assignment before this one
            log.warn("could not ask Kafka for the id of topic {} ({}); resuming from the stored offsets", topic, ex.getMessage());
            return aggregates.storedOffsets(topic);
        }
    }
}
