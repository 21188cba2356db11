package dev.lunchrush.orderservice.act;

import dev.lunchrush.support.readiness.SourceCheck;

/**
 * The checks an act's output may need to be ready ({@link ActOutput#needs}): RabbitMQ answers, RabbitMQ does not
 * block this service's publishing, Kafka answers.
 */
public record OutputChecks(SourceCheck rabbitmq, SourceCheck rabbitmqPublishing, SourceCheck kafka) {
}
