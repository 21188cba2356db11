package dev.lunchrush.analyticsdashboard.readiness;

import java.util.List;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;
import dev.lunchrush.support.readiness.OrderServiceAct;
import dev.lunchrush.support.readiness.ReadingReadiness;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Ready when the current act's source answers: RabbitMQ in acts 1-2, the order service (its feed) in act 3, Kafka
 * in act 4. The act is the order service's; before it ever answered, both brokers.
 */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(DashboardProperties properties, ConnectionFactory rabbitmq, KafkaAdmin kafka) {
        OrderServiceAct act = new OrderServiceAct(properties.orderService().url());
        SourceCheck queues = BrokerChecks.Rabbit.of(rabbitmq);
        SourceCheck log = BrokerChecks.Kafka.of(kafka, "analytics-dashboard");
        return new ActReadiness(act::current, current -> current
                .map(known -> switch (known) {
                    case LOG -> List.of(log);
                    case MEMORY_FEED -> List.of(act.check());
                    case SHARED_QUEUE, QUEUE_PER_READER -> List.of(queues);
                })
                .orElse(List.of(queues, log)));
    }

    /** Down while the reader is held though its sources answer: its store failing, or offsets it cannot vouch for. */
    @Bean(ReadingReadiness.NAME)
    ReadingReadiness reading() {
        return new ReadingReadiness();
    }
}
