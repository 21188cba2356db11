package dev.lunchrush.analyticsdashboard.receiving;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.listener.ConsumerSeekAware;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.stereotype.Component;

import dev.lunchrush.analyticsdashboard.processing.Aggregates;
import dev.lunchrush.analyticsdashboard.processing.Capacity;
import dev.lunchrush.analyticsdashboard.processing.Incoming;
import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.UnstorableOrderException;
import dev.lunchrush.support.kafka.KafkaDeadLetters;
import dev.lunchrush.support.kafka.KafkaTraceHeaders;
import dev.lunchrush.support.tracing.OrderTraces;
import dev.lunchrush.support.readiness.ReadingReadiness;
import dev.lunchrush.support.receiving.ReceivingProperties;

/**
 * Reads the log in group {@code analytics-dashboard}, a poll at a time, at the job's pace: a poll is
 * processed in steps of about 200 ms of the capacity (16 records at 80 events/s, 50 at the default
 * 250/s, a whole poll from 1,250/s), each step with its own offsets, so that the counts move at the
 * job's rate rather than a whole poll ahead of it (250 records are three seconds of a job of 80/s). Exact
 * counts: the offsets that count are the ones stored in the embedded database with the aggregates,
 * in the same transaction; on every partition assignment the consumer is moved to them (or to the
 * log's start where none are stored, or where they were stored for a topic of the same name with another
 * Kafka id: another log), not to Kafka's committed offsets; while Kafka cannot say the topic's id, nothing is
 * read. Kafka's offsets are
 * committed too, after the database, so that the backlog monitor sees the group's progress. Each traced order gets a
 * span of its step ({@link OrderTraces}): it starts when the job comes to it, as late as the backlog says.
 */
@Component
class KafkaOrderListener implements ConsumerSeekAware {

    private static final Logger log = LoggerFactory.getLogger(KafkaOrderListener.class);

    static final String LISTENER_ID = "analytics-dashboard-kafka";

    /** The hold of {@link ReadingReadiness} while the stored offsets cannot be vouched for. */
    static final String OFFSETS = "offsets";

    private static final long TOPIC_ID_RETRY_MILLIS = 1000;
    private static final int TOPIC_ID_TIMEOUT_MILLIS = 5000;

    private final OrderProcessor processor;
    private final Capacity capacity;
    private final Aggregates aggregates;
    private final KafkaAdmin kafkaAdmin;
    private final ReadingReadiness reading;
    private final ObjectProvider<KafkaListenerEndpointRegistry> registry;
    private final OrderTraces traces;

    private final ReceivingProperties.Kafka kafka;
    private final String topic;

    KafkaOrderListener(OrderProcessor processor, Capacity capacity, Aggregates aggregates, KafkaAdmin kafkaAdmin,
            ReadingReadiness reading, ObjectProvider<KafkaListenerEndpointRegistry> registry,
            ReceivingProperties receiving, OrderTraces traces) {
        this.processor = processor;
        this.traces = traces;
        this.capacity = capacity;
        this.aggregates = aggregates;
        this.kafkaAdmin = kafkaAdmin;
        this.reading = reading;
        this.registry = registry;
        this.kafka = receiving.kafka();
        this.topic = kafka.topic();
    }

    /** The log this listener reads ({@code lunchrush.kafka.topic}); public for its annotation's {@code __listener}. */
    public String topic() {
        return kafka.topic();
    }

    /** Whether this listener starts ({@code lunchrush.kafka.listen}); public for its annotation's {@code __listener}. */
    public boolean listening() {
        return kafka.listen();
    }

    @KafkaListener(id = LISTENER_ID, topics = "#{__listener.topic()}",
            groupId = "${spring.kafka.consumer.group-id:" + Topology.ANALYTICS_GROUP + "}",
            autoStartup = "#{__listener.listening()}")
    void onRecords(List<ConsumerRecord<String, OrderEvent>> records) throws InterruptedException {
        List<Incoming> batch = new ArrayList<>(records.size());
        for (int i = 0; i < records.size(); i++) {
            ConsumerRecord<String, OrderEvent> record = records.get(i);
            if (record.value() == null) {
                // count what came before the poison, then let the error handler dead-letter it and go on
                processInSteps(records, batch);
                throw KafkaDeadLetters.poison(record, i);
            }
            batch.add(new Incoming(record.value(), new TopicPartition(record.topic(), record.partition()), record.offset()));
        }
        processInSteps(records, batch);
    }

    /** {@code batch}: the first records of {@code records}, decoded; an order the database refuses is dead-lettered. */
    private void processInSteps(List<ConsumerRecord<String, OrderEvent>> records, List<Incoming> batch)
            throws InterruptedException {
        int step = Math.max(1, capacity.perSecond() / 5);
        for (int from = 0; from < batch.size(); from += step) {
            int to = Math.min(batch.size(), from + step);
            try (OrderTraces.Received received = traces.received("analytics-dashboard", Source.KAFKA,
                    records.subList(from, to), KafkaTraceHeaders.RECORD)) {
                try {
                    processor.process(Source.KAFKA, batch.subList(from, to));
                }
                catch (UnstorableOrderException ex) {
                    received.failed(ex);
                    throw KafkaDeadLetters.unstorable(records.get(from + ex.index()), from + ex.index(), ex);
                }
            }
        }
    }

    @Override
    public void onPartitionsAssigned(Map<TopicPartition, Long> assignments, ConsumerSeekCallback callback) {
        if (assignments.isEmpty()) {
            // nothing to read, nothing to vouch for: the log may not be made yet
            return;
        }
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

    /**
     * The stored offsets, once they are known to be of the log Kafka holds now under the topic's name (its id tells).
     * Until Kafka says the id, nothing is read: the consumer waits here, in the assignment, asking again every
     * {@link #TOPIC_ID_RETRY_MILLIS}, with readiness {@code reading} down; the stored offsets of another log would
     * skip this one's records, and the log's start would count the stored ones again. A stop while it waits fails
     * the assignment, so that nothing is read on.
     */
    private Map<TopicPartition, Long> storedOffsets() {
        reading.hold(OFFSETS, "asking Kafka for the id of " + topic + ", to vouch for the stored offsets");
        for (int attempt = 1; ; attempt++) {
            try {
                Map<TopicPartition, Long> offsets = aggregates.storedOffsets(topic, topicId());
                if (attempt > 1) {
                    log.info("Kafka says the id of topic {} now: reading on", topic);
                }
                reading.release(OFFSETS);
                return offsets;
            }
            catch (ExecutionException | TimeoutException | org.apache.kafka.common.KafkaException ex) {
                String why = ex instanceof ExecutionException && ex.getCause() != null ? ex.getCause().toString() : ex.toString();
                reading.hold(OFFSETS, "the stored offsets of " + topic + " cannot be vouched for: Kafka does not say "
                        + "the topic's id (" + why + "); nothing is read until it does");
                if (attempt == 1) {
                    log.warn("could not ask Kafka for the id of topic {} ({}); nothing is read until it answers, asking "
                            + "again every {} ms", topic, why, TOPIC_ID_RETRY_MILLIS);
                }
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while asking for the id of topic " + topic, ex);
            }
            waitBeforeAskingAgain();
        }
    }

    /** The topic's Kafka id, asked with a client of its own and a bounded wait (the shared admin's may wait a minute). */
    private String topicId() throws ExecutionException, TimeoutException, InterruptedException {
        Map<String, Object> config = new HashMap<>(kafkaAdmin.getConfigurationProperties());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "analytics-dashboard-topic-id");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TOPIC_ID_TIMEOUT_MILLIS);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TOPIC_ID_TIMEOUT_MILLIS);
        try (Admin admin = Admin.create(config)) {
            return admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs(TOPIC_ID_TIMEOUT_MILLIS))
                    .allTopicNames().get(TOPIC_ID_TIMEOUT_MILLIS + 500L, TimeUnit.MILLISECONDS).get(topic).topicId().toString();
        }
    }

    private void waitBeforeAskingAgain() {
        try {
            Thread.sleep(TOPIC_ID_RETRY_MILLIS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the id of topic " + topic, ex);
        }
        MessageListenerContainer container = registry.getIfAvailable() == null ? null
                : registry.getIfAvailable().getListenerContainer(LISTENER_ID);
        if (container != null && !container.isRunning()) {
            throw new IllegalStateException("stopped while waiting for the id of topic " + topic + ": nothing read");
        }
    }
}
