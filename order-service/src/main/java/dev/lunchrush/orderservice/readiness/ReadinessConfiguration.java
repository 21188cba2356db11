package dev.lunchrush.orderservice.readiness;

import java.util.Optional;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

import dev.lunchrush.events.Act;
import dev.lunchrush.orderservice.act.ActOutput;
import dev.lunchrush.orderservice.act.Acts;
import dev.lunchrush.orderservice.act.CurrentAct;
import dev.lunchrush.orderservice.act.OutputChecks;
import dev.lunchrush.orderservice.publishing.PublishingBlock;
import dev.lunchrush.support.readiness.ActReadiness;
import dev.lunchrush.support.readiness.BrokerChecks;
import dev.lunchrush.support.readiness.SourceCheck;

/**
 * Ready when the current act's output takes orders: what its {@link ActOutput#needs} names, of RabbitMQ answering,
 * RabbitMQ not blocking this service's publishing (a memory or disk alarm: {@link PublishingBlock}) and Kafka
 * answering. A stopped broker leaves the acts that do not write to it ready.
 */
@Configuration(proxyBeanMethods = false)
class ReadinessConfiguration {

    @Bean(ActReadiness.NAME)
    ActReadiness sources(CurrentAct currentAct, Acts acts, ConnectionFactory rabbitmq, PublishingBlock block,
            KafkaAdmin kafka) {
        OutputChecks checks = new OutputChecks(BrokerChecks.Rabbit.of(rabbitmq), publishing(block),
                BrokerChecks.Kafka.of(kafka, "order-service"));
        return new ActReadiness(() -> Optional.of(currentAct.get().act()),
                act -> acts.output(act.orElse(Act.first())).needs(checks));
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
