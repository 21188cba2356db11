package dev.lunchrush.orderservice.readiness;

import java.util.List;
import java.util.Optional;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

import dev.lunchrush.events.Act;
import dev.lunchrush.orderservice.act.CurrentAct;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Ready when the current act's output answers: RabbitMQ in acts 1-3 (in act 3 the kitchen's queue; the feed is in
 * this service's memory), Kafka in act 4. A stopped RabbitMQ leaves the log act ready, a stopped Kafka the queue
 * acts.
 */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(CurrentAct currentAct, ConnectionFactory rabbitmq, KafkaAdmin kafka) {
        SourceCheck queues = BrokerChecks.Rabbit.of(rabbitmq);
        SourceCheck log = BrokerChecks.Kafka.of(kafka, "order-service");
        return new ActReadiness(() -> Optional.of(currentAct.get().act()),
                act -> act.orElse(Act.SHARED_QUEUE) == Act.LOG ? List.of(log) : List.of(queues));
    }
}
