package dev.lunchrush.kitchenscreen.receiving;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;

import dev.lunchrush.events.Source;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.kafka.KafkaDeadLetters;
import dev.lunchrush.support.topology.OrderTopics;

/**
 * Kafka error handling, declared once ({@link KafkaDeadLetters}): a record that is not an order event
 * goes at once to {@code orders.DLT} with its original bytes and is counted; any other failure is
 * retried, never skipped. The topics are declared too, with the order service's settings, so that
 * start order does not matter.
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

    @Bean
    KafkaTemplate<Object, Object> deadLetterTemplate(KafkaProperties properties) {
        return KafkaDeadLetters.template(properties.buildProducerProperties());
    }

    @Bean
    DefaultErrorHandler kafkaErrorHandler(KafkaTemplate<Object, Object> deadLetterTemplate, KitchenScreen screen) {
        return KafkaDeadLetters.errorHandler(deadLetterTemplate, () -> screen.deadLettered(Source.KAFKA));
    }
}
