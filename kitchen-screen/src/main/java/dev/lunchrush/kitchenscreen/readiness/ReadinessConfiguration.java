package dev.lunchrush.kitchenscreen.readiness;

import java.util.List;
import java.util.Map;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.web.client.RestClient;

import dev.lunchrush.events.Act;
import dev.lunchrush.events.OrderSource;
import dev.lunchrush.kitchenscreen.KitchenScreenProperties;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;
import dev.lunchrush.support.readiness.OrderServiceAct;
import dev.lunchrush.support.readiness.ReadingReadiness;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Ready when the source the screen reads in the current act ({@link Act#kitchenReads()}) answers: RabbitMQ for a
 * queue, Kafka for the log. The act is the order service's; before it ever answered, both brokers.
 */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(KitchenScreenProperties properties, ConnectionFactory rabbitmq, KafkaAdmin kafka,
            RestClient.Builder http) {
        OrderServiceAct act = new OrderServiceAct(properties.orderService().url(), http);
        SourceCheck queues = BrokerChecks.Rabbit.of(rabbitmq);
        SourceCheck log = BrokerChecks.Kafka.of(kafka, "kitchen-screen");
        return forTheAct(act, queues, log);
    }

    /** The sources of the act the order service says: {@code queues} for a queue, {@code log} for the log. */
    static ActReadiness forTheAct(OrderServiceAct act, SourceCheck queues, SourceCheck log) {
        List<SourceCheck> both = List.of(queues, log);
        Map<OrderSource, List<SourceCheck>> reads = Map.of(OrderSource.QUEUE, List.of(queues), OrderSource.LOG, List.of(log));
        return new ActReadiness(act::current, current -> current
                .map(known -> reads.getOrDefault(known.kitchenReads(), both))
                .orElse(both));
    }

    /** Down while the screen is held though its sources answer: its journal failing. */
    @Bean(ReadingReadiness.NAME)
    ReadingReadiness reading() {
        return new ReadingReadiness();
    }
}
