package dev.lunchrush.orderservice.notifications;

import java.util.HashMap;
import java.util.Map;

import io.micrometer.observation.ObservationPredicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import org.springframework.amqp.rabbit.support.micrometer.RabbitMessageSenderContext;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

import dev.lunchrush.support.tracing.OrderTraces;

/**
 * The SMS relay's consumer: its own group on the log, raw bytes (the relay decodes, and skips what
 * is not an order), fetches that wait for a batch, offsets committed only after the batch's tasks
 * are confirmed by RabbitMQ, and a batch that could not be put on the queue retried every second
 * for as long as it takes: an SMS task is never skipped. The relay starts if
 * {@code lunchrush.notifications.relay-enabled}.
 */
@Configuration(proxyBeanMethods = false)
class SmsRelayConfiguration {

    static final String CONTAINER_FACTORY = "smsRelayContainerFactory";

    /**
     * A publish to RabbitMQ is traced as part of an order's trace, never alone: the relay's batches of SMS tasks,
     * many orders in one message, are no order's, and a trace of each would be noise.
     */
    @Bean
    ObservationPredicate relayPublishesAreNotTraced(OrderTraces traces) {
        return (name, context) -> !(context instanceof RabbitMessageSenderContext) || traces.tracer().currentSpan() != null;
    }

    @Bean(CONTAINER_FACTORY)
    ConcurrentKafkaListenerContainerFactory<String, byte[]> smsRelayContainerFactory(KafkaProperties kafka,
            SmsRelayStart start, NotificationSettings settings) {
        Map<String, Object> consumer = new HashMap<>(kafka.buildConsumerProperties());
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, SmsRelay.GROUP);
        consumer.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        consumer.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        consumer.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // where a partition without a committed offset starts is decided by SmsRelay (the service's start)
        consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        // a fetch waits up to a second for a full batch (~500 orders of ~1 KB): at the lesson's 400 orders/s one
        // fetch, one RabbitMQ message and one offset commit a second, not one per ~64 orders (six a second), and an
        // idle relay asks the broker once a second (an SMS that says "being cooked" can wait a second)
        consumer.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 512 * 1024);
        consumer.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 1000);
        // the group's heartbeat thread wakes every retry.backoff.ms to see whether a heartbeat is due (every
        // 3 s): ten times a second by default, twice here; failed requests are retried after 500 ms
        consumer.put(ConsumerConfig.RETRY_BACKOFF_MS_CONFIG, 500);
        consumer.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, SmsRelay.MAX_TASKS_PER_MESSAGE);
        ConcurrentKafkaListenerContainerFactory<String, byte[]> factory = new ConcurrentKafkaListenerContainerFactory<>();
        factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(consumer));
        factory.setAutoStartup(settings.relayEnabled());
        factory.setBatchListener(true);
        factory.getContainerProperties().setAckMode(ContainerProperties.AckMode.BATCH);
        factory.getContainerProperties().setMissingTopicsFatal(false);
        factory.getContainerProperties().setConsumerRebalanceListener(start);
        factory.setCommonErrorHandler(new DefaultErrorHandler(new FixedBackOff(1000, FixedBackOff.UNLIMITED_ATTEMPTS)));
        return factory;
    }
}
