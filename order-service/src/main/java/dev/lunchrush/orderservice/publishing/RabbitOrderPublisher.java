package dev.lunchrush.orderservice.publishing;

import java.time.Duration;
import java.util.Date;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
import dev.lunchrush.orderservice.web.BlockingWork;

/**
 * Publishes an order so that RabbitMQ takes responsibility for it: persistent message, mandatory (a
 * message no queue takes comes back, and that is a failure, not a silent loss), correlated publisher
 * confirm with a timeout. The caller may answer 201 only once the returned future completed; it fails
 * with a 503 problem otherwise. Nobody waits for the confirm on a thread: it completes the future.
 */
@Component
public class RabbitOrderPublisher {

    private static final Logger log = LoggerFactory.getLogger(RabbitOrderPublisher.class);

    private final RabbitTemplate rabbit;
    private final BlockingWork blocking;
    private final Duration timeout;

    RabbitOrderPublisher(RabbitTemplate rabbit, BlockingWork blocking, OrderServiceProperties properties) {
        this.rabbit = rabbit;
        this.blocking = blocking;
        this.timeout = properties.outputTimeout();
        // the template must report unroutable messages; the yml says so too, this makes it independent of it
        this.rabbit.setMandatory(true);
        // a returned message is reported to its publisher through its CorrelationData (see confirmed)
        this.rabbit.setReturnsCallback(returned -> log.debug("returned by RabbitMQ: {} {}", returned.getReplyCode(),
                returned.getReplyText()));
    }

    /**
     * Publishes on a thread that may wait for the broker's connection (never an event loop); the future
     * completes when RabbitMQ confirmed the message.
     */
    public CompletableFuture<Void> publish(String exchange, String routingKey, OrderEvent event, byte[] body) {
        return blocking.supply(() -> confirmed(exchange, routingKey, event, body)).thenCompose(confirm -> confirm);
    }

    /** Publishes on the calling thread, which may wait for the broker's connection; the confirm comes later. */
    public CompletableFuture<Void> confirmed(String exchange, String routingKey, OrderEvent event, byte[] body) {
        return confirmed(exchange, routingKey, event.orderId(), event.placedAt().toEpochMilli(), body);
    }

    /** Publishes one message on the calling thread and waits for its confirm; a 503 problem when it is not confirmed. */
    public void publishAndWait(String exchange, String routingKey, String messageId, long timestampMillis, byte[] body) {
        try {
            confirmed(exchange, routingKey, messageId, timestampMillis, body).join();
        }
        catch (CompletionException ex) {
            if (ex.getCause() instanceof ProblemException problem) {
                throw problem;
            }
            throw ex;
        }
    }

    private CompletableFuture<Void> confirmed(String exchange, String routingKey, String messageId, long timestampMillis,
            byte[] body) {
        CorrelationData correlation = new CorrelationData(messageId);
        String target = exchange.isEmpty() ? "queue " + routingKey : "exchange " + exchange;
        try {
            rabbit.send(exchange, routingKey, message(messageId, timestampMillis, body), correlation);
        }
        catch (AmqpException ex) {
            log.warn("could not publish {} to {}: {}", messageId, target, ex.getMessage());
            return CompletableFuture.failedFuture(ProblemException.unavailable("RabbitMQ is not reachable: " + ex.getMessage()));
        }
        return correlation.getFuture().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((confirm, failure) -> {
            if (failure != null) {
                if (failure instanceof TimeoutException) {
                    log.warn("no confirm for {} from {} within {}", messageId, target, timeout);
                    throw ProblemException.unavailable("RabbitMQ did not confirm the order within " + timeout.toMillis() + " ms");
                }
                throw ProblemException.unavailable("RabbitMQ publish failed: " + failure);
            }
            ReturnedMessage returned = correlation.getReturned();
            if (returned != null) {
                throw ProblemException.unavailable("RabbitMQ could not route the order to " + target + ": "
                        + returned.getReplyText());
            }
            if (!confirm.ack()) {
                throw ProblemException.unavailable("RabbitMQ refused the order (" + target + "): " + confirm.reason());
            }
            return null;
        });
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
