package dev.lunchrush.analyticsdashboard.readiness;

import java.util.List;
import java.util.Map;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.web.client.RestClient;

import dev.lunchrush.analyticsdashboard.DashboardProperties;
import dev.lunchrush.events.Act;
import dev.lunchrush.events.OrderSource;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;
import dev.lunchrush.support.readiness.OrderServiceAct;
import dev.lunchrush.support.readiness.ReadingReadiness;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Ready when the source the dashboard reads in the current act ({@link Act#analyticsReads()}) answers: RabbitMQ for
 * a queue, the order service for its feed, Kafka for the log. The act is the order service's; before it ever
 * answered, both brokers.
 */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(DashboardProperties properties, ConnectionFactory rabbitmq, KafkaAdmin kafka,
            RestClient.Builder http) {
        OrderServiceAct act = new OrderServiceAct(properties.orderService().url(), http);
        SourceCheck queues = BrokerChecks.Rabbit.of(rabbitmq);
        SourceCheck log = BrokerChecks.Kafka.of(kafka, "analytics-dashboard");
        return forTheAct(act, queues, log);
    }

    /**
     * The sources of the act the order service says: {@code queues} for a queue, the order service for its feed,
     * {@code log} for the log.
     */
    static ActReadiness forTheAct(OrderServiceAct act, SourceCheck queues, SourceCheck log) {
        List<SourceCheck> both = List.of(queues, log);
        Map<OrderSource, List<SourceCheck>> reads = Map.of(OrderSource.QUEUE, List.of(queues),
                OrderSource.FEED, List.of(act.check()), OrderSource.LOG, List.of(log));
        return new ActReadiness(act::current, current -> current
                .map(known -> reads.getOrDefault(known.analyticsReads(), both))
                .orElse(both));
    }

    /** Down while the reader is held though its sources answer: its store failing, or offsets it cannot vouch for. */
    @Bean(ReadingReadiness.NAME)
    ReadingReadiness reading() {
        return new ReadingReadiness();
    }
}
