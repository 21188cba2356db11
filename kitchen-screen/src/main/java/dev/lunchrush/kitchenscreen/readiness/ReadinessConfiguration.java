package dev.lunchrush.kitchenscreen.readiness;

import java.util.List;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

import dev.lunchrush.events.Act;
import dev.lunchrush.kitchenscreen.KitchenScreenProperties;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;
import dev.lunchrush.support.readiness.OrderServiceAct;
import dev.lunchrush.support.readiness.ReadingReadiness;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Ready when the current act's source answers: RabbitMQ in acts 1-3 (the shared queue, then the screen's own),
 * Kafka in act 4. The act is the order service's; before it ever answered, both brokers.
 */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(KitchenScreenProperties properties, ConnectionFactory rabbitmq, KafkaAdmin kafka) {
        OrderServiceAct act = new OrderServiceAct(properties.orderService().url());
        SourceCheck queues = BrokerChecks.Rabbit.of(rabbitmq);
        SourceCheck log = BrokerChecks.Kafka.of(kafka, "kitchen-screen");
        return new ActReadiness(act::current, current -> current
                .map(known -> known == Act.LOG ? List.of(log) : List.of(queues))
                .orElse(List.of(queues, log)));
    }

    /** Down while the screen is held though its sources answer: its journal failing. */
    @Bean(ReadingReadiness.NAME)
    ReadingReadiness reading() {
        return new ReadingReadiness();
    }
}
