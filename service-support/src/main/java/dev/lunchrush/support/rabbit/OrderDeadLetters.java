package dev.lunchrush.support.rabbit;

import java.io.IOException;
import java.util.function.Consumer;

import com.rabbitmq.client.Channel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecoverer;
import org.springframework.amqp.rabbit.retry.RepublishMessageRecovererWithConfirms;

import dev.lunchrush.events.Topology;

/**
 * How a reader dead-letters a message it cannot take (not an order event, an order beyond {@code OrderLimits}, an
 * order its store cannot hold): the message goes to {@code orders.dlx} with its reason in the header
 * {@code x-exception-message} (Spring AMQP's {@link RepublishMessageRecoverer}), confirmed by the broker, and only
 * then is it acknowledged; if that fails, it is rejected without requeue, so that the broker dead-letters it
 * without the reason. Either way it is counted and never requeued. Needs {@code spring.rabbitmq.publisher-confirm-type:
 * simple} on the template's connection factory.
 */
public final class OrderDeadLetters {

    private static final Logger log = LoggerFactory.getLogger(OrderDeadLetters.class);

    private final RepublishMessageRecovererWithConfirms republisher;
    private final Consumer<String> counter;

    /** @param counter counts one message dead-lettered from a source, as the reader counts its sources */
    public OrderDeadLetters(RabbitTemplate template, Consumer<String> counter) {
        this.republisher = new RepublishMessageRecovererWithConfirms(template, Topology.DEAD_LETTER_EXCHANGE, "",
                CachingConnectionFactory.ConfirmType.SIMPLE);
        this.counter = counter;
    }

    /** Settles the message (a delivery on {@code channel}) as a dead letter with {@code reason}. */
    public void deadLetter(Message message, Channel channel, String source, Throwable reason) throws IOException {
        long tag = message.getMessageProperties().getDeliveryTag();
        log.warn("dead-lettering a message from {}: {}", source, reason.getMessage());
        try {
            republisher.recover(message, new Reason(reason));
            channel.basicAck(tag, false);
        }
        catch (RuntimeException ex) {
            log.warn("could not put the message on {} with its reason ({}); rejected, the broker dead-letters it",
                    Topology.DEAD_LETTER_EXCHANGE, ex.toString());
            channel.basicReject(tag, false);
        }
        counter.accept(source);
    }

    /**
     * The reason as the recoverer writes it: its message in {@code x-exception-message} (the recoverer would take a
     * cause's message instead), its stack trace in {@code x-exception-stacktrace}.
     */
    private static final class Reason extends RuntimeException {

        Reason(Throwable reason) {
            super(reason.getMessage(), null, false, true);
            setStackTrace(reason.getStackTrace());
        }
    }
}
