package dev.lunchrush.orderservice.publishing;

import java.time.Duration;
import java.util.Date;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.AmqpException;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageBuilder;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.core.ReturnedMessage;
import org.springframework.amqp.rabbit.connection.CorrelationData;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.orderservice.OrderServiceProperties;
import dev.lunchrush.orderservice.problems.ProblemException;

/**
 * Publishes an order and waits until RabbitMQ has taken responsibility for it: persistent message,
 * mandatory (a message no queue takes comes back, and that is a failure, not a silent loss),
 * correlated publisher confirm awaited with a timeout. Only then may the caller answer 201.
 */
@Component
public class RabbitOrderPublisher {

    private static final Logger log = LoggerFactory.getLogger(RabbitOrderPublisher.class);

    private final RabbitTemplate rabbit;
    private final Duration timeout;

    RabbitOrderPublisher(RabbitTemplate rabbit, OrderServiceProperties properties) {
        this.rabbit = rabbit;
        this.timeout = properties.outputTimeout();
        // the template must report unroutable messages; the yml says so too, this makes it independent of it
        this.rabbit.setMandatory(true);
        // a returned message is reported to its publisher through its CorrelationData (see publish)
        this.rabbit.setReturnsCallback(returned -> log.debug("returned by RabbitMQ: {} {}", returned.getReplyCode(),
                returned.getReplyText()));
    }

    public void publish(String exchange, String routingKey, OrderEvent event, byte[] body) {
        publish(exchange, routingKey, event.orderId(), event.placedAt().toEpochMilli(), body);
    }

    /** Publishes one message and waits for its confirm; throws a 503 problem when it is not confirmed. */
    public void publish(String exchange, String routingKey, String messageId, long timestampMillis, byte[] body) {
        Message message = message(messageId, timestampMillis, body);
        CorrelationData correlation = new CorrelationData(messageId);
        String target = exchange.isEmpty() ? "queue " + routingKey : "exchange " + exchange;
        try {
            rabbit.send(exchange, routingKey, message, correlation);
            CorrelationData.Confirm confirm = correlation.getFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            ReturnedMessage returned = correlation.getReturned();
            if (returned != null) {
                throw ProblemException.unavailable("RabbitMQ could not route the order to " + target + ": "
                        + returned.getReplyText());
            }
            if (!confirm.ack()) {
                throw ProblemException.unavailable("RabbitMQ refused the order (" + target + "): " + confirm.reason());
            }
        }
        catch (AmqpException ex) {
            log.warn("could not publish {} to {}: {}", messageId, target, ex.getMessage());
            throw ProblemException.unavailable("RabbitMQ is not reachable: " + ex.getMessage());
        }
        catch (TimeoutException ex) {
            log.warn("no confirm for {} from {} within {}", messageId, target, timeout);
            throw ProblemException.unavailable("RabbitMQ did not confirm the order within " + timeout.toMillis() + " ms");
        }
        catch (ExecutionException ex) {
            throw ProblemException.unavailable("RabbitMQ publish failed: " + ex.getCause());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw ProblemException.unavailable("interrupted while waiting for RabbitMQ's confirm");
        }
    }

    /**
     * Publishes one persistent message without waiting for its confirm: {@code confirmed} is told later whether
     * RabbitMQ took it (true) or not (false: refused, unroutable, no confirm within the timeout, or not sent at all).
     * For work whose failure does not change the caller's answer.
     */
    public void publishAsync(String exchange, String routingKey, String messageId, long timestampMillis, byte[] body,
            Consumer<Boolean> confirmed) {
        CorrelationData correlation = new CorrelationData(messageId);
        try {
            rabbit.send(exchange, routingKey, message(messageId, timestampMillis, body), correlation);
        }
        catch (AmqpException ex) {
            log.warn("could not publish {} to {}: {}", messageId, exchange.isEmpty() ? routingKey : exchange,
                    ex.getMessage());
            confirmed.accept(false);
            return;
        }
        correlation.getFuture().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((confirm, failure) ->
                confirmed.accept(failure == null && confirm.ack() && correlation.getReturned() == null));
    }

    private static Message message(String messageId, long timestampMillis, byte[] body) {
        return MessageBuilder.withBody(body)
                .setContentType(MessageProperties.CONTENT_TYPE_JSON)
                .setContentEncoding("UTF-8")
                .setDeliveryMode(MessageDeliveryMode.PERSISTENT)
                .setMessageId(messageId)
                .setTimestamp(new Date(timestampMillis))
                .build();
    }
}
