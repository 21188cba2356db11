package dev.lunchrush.orderservice.readiness;

import java.util.List;
import java.util.Optional;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

import dev.lunchrush.events.Act;
import dev.lunchrush.orderservice.act.CurrentAct;
import dev.lunchrush.orderservice.publishing.PublishingBlock;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Ready when the current act's output takes orders: in acts 1-3 RabbitMQ answers and does not block this service's
 * publishing (a memory or disk alarm: {@link PublishingBlock}; in act 3 the kitchen's queue, the feed is in this
 * service's memory), in act 4 Kafka answers. A stopped RabbitMQ leaves the log act ready, a stopped Kafka the queue
 * acts.
 */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(CurrentAct currentAct, ConnectionFactory rabbitmq, PublishingBlock block, KafkaAdmin kafka) {
        SourceCheck queues = BrokerChecks.Rabbit.of(rabbitmq);
        SourceCheck publishing = publishing(block);
        SourceCheck log = BrokerChecks.Kafka.of(kafka, "order-service");
        return new ActReadiness(() -> Optional.of(currentAct.get().act()),
                act -> act.orElse(Act.SHARED_QUEUE) == Act.LOG ? List.of(log) : List.of(queues, publishing));
    }

    /**
     * Down while RabbitMQ blocks publishing. Up otherwise, after a probe that makes a broker under an alarm block
     * this connection and say so, so that the next check is down even when no order came meanwhile.
     */
    private static SourceCheck publishing(PublishingBlock block) {
        return new SourceCheck("rabbitmq-publishing", () -> {
            String reason = block.reason();
            if (reason != null) {
                throw new IllegalStateException("RabbitMQ blocks publishing (" + reason + ")");
            }
            block.probe();
            return "not blocked";
        });
    }
}
