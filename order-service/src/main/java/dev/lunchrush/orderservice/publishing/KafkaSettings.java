package dev.lunchrush.orderservice.publishing;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The log's settings beyond {@code spring.kafka.*}.
 *
 * @param replicationFactor replicas of the topics; empty takes the broker's default (1 on the local
 *     broker, 3 on the three-broker cluster)
 * @param sendTimeout how long an order waits for the ack before it gets 503; the producer's own
 *     timeouts (max.block.ms, delivery.timeout.ms) are set below it in application.yml
 * @param importTimeout how long an import of up to 1000 orders may take, its transaction's commit included
 * @param topicRetry how often, at most, to try again to create the topics while Kafka is away
 */
@ConfigurationProperties("lunchrush.kafka")
public record KafkaSettings(
        @Nullable Short replicationFactor,
        @DefaultValue("9s") Duration sendTimeout,
        @DefaultValue("30s") Duration importTimeout,
        @DefaultValue("5s") Duration topicRetry) {
}
