package dev.lunchrush.kitchenscreen.receiving;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.serializer.DelegatingByTypeSerializer;
import org.springframework.util.backoff.FixedBackOff;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.OrderEventSerializer;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.topology.OrderTopics;

/**
 * Kafka error handling, declared once: a record that is not an order event (the
 * ErrorHandlingDeserializer around OrderEventDeserializer marks it) goes at once to {@code orders.DLT}
 * with its original bytes and is counted; any other failure is retried, never skipped, because a
 * valid order must not be lost. The topics are declared too, with the order service's settings, so
 * that start order does not matter.
 */
@Configuration(proxyBeanMethods = false)
class KafkaReceiving {

    @Bean
    NewTopic ordersTopic() {
        return OrderTopics.orders();
    }

    @Bean
    NewTopic ordersDeadLetterTopic() {
        return OrderTopics.deadLetters();
    }

    /** Writes raw poison bytes to the dead-letter topic; order events, should one ever land there, as JSON. */
    @Bean
    @SuppressWarnings({"unchecked", "rawtypes"})
    KafkaTemplate<Object, Object> deadLetterTemplate(KafkaProperties properties) {
        Map<String, Object> config = new LinkedHashMap<>(properties.buildProducerProperties());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        Map<Class<?>, Serializer<?>> byType = new LinkedHashMap<>();
        byType.put(byte[].class, new ByteArraySerializer());
        byType.put(OrderEvent.class, new OrderEventSerializer());
        DefaultKafkaProducerFactory<Object, Object> factory = new DefaultKafkaProducerFactory<>(config,
                (Serializer) new StringSerializer(), (Serializer) new DelegatingByTypeSerializer(byType));
        return new KafkaTemplate<>(factory);
    }

    @Bean
    DefaultErrorHandler kafkaErrorHandler(KafkaTemplate<Object, Object> deadLetterTemplate, KitchenScreen screen) {
        DeadLetterPublishingRecoverer publisher = new DeadLetterPublishingRecoverer(deadLetterTemplate,
                // the same partition of orders.DLT (spring-kafka's default name would be orders-dlt)
                (record, ex) -> new TopicPartition(Topology.ORDERS_DEAD_LETTER_TOPIC, record.partition()));
        DefaultErrorHandler handler = new DefaultErrorHandler((record, ex) -> {
            publisher.accept(record, ex);
            screen.deadLettered(Source.KAFKA);
        }, new FixedBackOff(1000L, FixedBackOff.UNLIMITED_ATTEMPTS));
        handler.addNotRetryableExceptions(OrderEventFormatException.class);
        return handler;
    }
}
