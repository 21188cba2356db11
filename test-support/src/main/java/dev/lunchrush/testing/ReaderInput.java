package dev.lunchrush.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.QueueInformation;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.test.utils.ContainerTestUtils;

import dev.lunchrush.events.Topology;

import static org.awaitility.Awaitility.await;

/**
 * How a reader's test feeds it and looks at what it dead-lettered, through the reader's own connections to
 * the real brokers: messages published to its RabbitMQ queues and records sent to the log as the order
 * service would, and what ended up in the dead letters. A test imports it
 * ({@code @Import(ReaderInput.class)}) and has it autowired.
 */
public class ReaderInput {

    private final RabbitTemplate rabbit;
    private final AmqpAdmin rabbitAdmin;
    private final KafkaTemplate<Object, Object> kafka;
    private final KafkaListenerEndpointRegistry kafkaListeners;

    public ReaderInput(RabbitTemplate rabbit, AmqpAdmin rabbitAdmin, KafkaTemplate<Object, Object> kafka,
            KafkaListenerEndpointRegistry kafkaListeners) {
        this.rabbit = rabbit;
        this.rabbitAdmin = rabbitAdmin;
        this.kafka = kafka;
        this.kafkaListeners = kafkaListeners;
    }

    /** A persistent JSON message to {@code queue} through the default exchange, as the order service publishes. */
    public void publish(String queue, byte[] body) {
        MessageProperties properties = new MessageProperties();
        properties.setContentType("application/json");
        properties.setDeliveryMode(MessageDeliveryMode.PERSISTENT);
        rabbit.send("", queue, new Message(body, properties));
    }

    /** The messages in {@code queue}; 0 for a queue that does not exist. */
    public long queueDepth(String queue) {
        QueueInformation info = rabbitAdmin.getQueueInfo(queue);
        return info == null ? 0 : info.getMessageCount();
    }

    /** Waits until every log listener of the reader has all the partitions of {@code orders}. */
    public void awaitLogAssignment() {
        kafkaListeners.getListenerContainers().forEach(container ->
                ContainerTestUtils.waitForAssignment(container, Topology.ORDERS_PARTITIONS));
    }

    /** Sends {@code value} (an order event, or raw bytes) to {@code orders}, keyed by {@code key}. */
    public void sendToLog(String key, Object value) {
        kafka.send(Topology.ORDERS_TOPIC, key, value);
    }

    /** Waits until everything sent to the log is acknowledged. */
    public void flushLog() {
        kafka.flush();
    }

    /** Every value in {@code orders.DLT}, from its start to its end; waits until there is at least one. */
    public List<byte[]> deadLetterTopicValues() {
        return deadLetterTopicRecords().stream().map(ConsumerRecord::value).toList();
    }

    /**
     * The reason the reader gave for each value in {@code orders.DLT} (the header {@code kafka_dlt-exception-message}),
     * by the value as text, from the topic's start to its end; waits until there is at least one.
     */
    public Map<String, String> deadLetterTopicReasons() {
        Map<String, String> reasons = new LinkedHashMap<>();
        for (ConsumerRecord<String, byte[]> record : deadLetterTopicRecords()) {
            Header reason = record.headers().lastHeader(KafkaHeaders.DLT_EXCEPTION_MESSAGE);
            reasons.put(new String(record.value(), StandardCharsets.UTF_8),
                    reason == null ? null : new String(reason.value(), StandardCharsets.UTF_8));
        }
        return reasons;
    }

    /**
     * Takes every message off {@code orders.dead-letter}: the reason the reader gave for each (the header
     * {@code x-exception-message}), by the body as text.
     */
    public Map<String, String> takeDeadLetterQueueReasons() {
        Map<String, String> reasons = new LinkedHashMap<>();
        Message message;
        while ((message = rabbit.receive(Topology.DEAD_LETTER_QUEUE)) != null) {
            Object reason = message.getMessageProperties().getHeaders().get("x-exception-message");
            reasons.put(new String(message.getBody(), StandardCharsets.UTF_8), reason == null ? null : reason.toString());
        }
        return reasons;
    }

    private List<ConsumerRecord<String, byte[]>> deadLetterTopicRecords() {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestBrokers.kafkaBootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<ConsumerRecord<String, byte[]>> values = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < Topology.ORDERS_PARTITIONS; p++) {
                partitions.add(new TopicPartition(Topology.ORDERS_DEAD_LETTER_TOPIC, p));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record);
                }
                return !values.isEmpty() && partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp));
            });
        }
        return values;
    }
}
