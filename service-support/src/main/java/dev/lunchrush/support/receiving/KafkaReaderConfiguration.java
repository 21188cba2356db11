package dev.lunchrush.support.receiving;

import org.apache.kafka.clients.admin.NewTopic;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;

import dev.lunchrush.support.kafka.KafkaDeadLetters;
import dev.lunchrush.support.topology.OrderTopics;

/**
 * Kafka error handling for a reader of the log, declared once ({@link KafkaDeadLetters}): a record that is
 * not an order event goes at once to {@code orders.DLT} with its original bytes and is counted; any other
 * failure is retried, never skipped. The topics are declared too, with the order service's settings, so
 * that start order does not matter. A reader's configuration extends it and says how it counts a
 * dead-lettered record. Registers the readers' {@link ReceivingProperties}.
 */
@EnableConfigurationProperties(ReceivingProperties.class)
public abstract class KafkaReaderConfiguration {

    private final Runnable deadLettered;

    /** @param deadLettered counts one record dead-lettered from the log, as the reader counts its sources */
    protected KafkaReaderConfiguration(Runnable deadLettered) {
        this.deadLettered = deadLettered;
    }

    @Bean
    public NewTopic ordersTopic() {
        return OrderTopics.orders();
    }

    @Bean
    public NewTopic ordersDeadLetterTopic() {
        return OrderTopics.deadLetters();
    }

    @Bean
    public KafkaTemplate<Object, Object> deadLetterTemplate(KafkaProperties properties) {
        return KafkaDeadLetters.template(properties.buildProducerProperties());
    }

    @Bean
    public DefaultErrorHandler kafkaErrorHandler(KafkaTemplate<Object, Object> deadLetterTemplate) {
        return KafkaDeadLetters.errorHandler(deadLetterTemplate, deadLettered);
    }
}
