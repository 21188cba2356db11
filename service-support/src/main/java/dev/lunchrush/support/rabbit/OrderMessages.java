package dev.lunchrush.support.rabbit;

import java.io.IOException;

import com.rabbitmq.client.Channel;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;

/**
 * How the readers take orders from RabbitMQ: manual acknowledgements after the order is recorded,
 * poison rejected without requeue so that the broker dead-letters it to {@code orders.dlx}.
 */
public final class OrderMessages {

    private static final Logger log = LoggerFactory.getLogger(OrderMessages.class);

    private OrderMessages() {
    }

    /**
     * Manual acknowledgements and the given prefetch; a broker that is down at start is retried in the
     * background, so the web part starts anyway. The same for a simple container and a direct one.
     */
    public static <F extends AbstractRabbitListenerContainerFactory<?>> F manualAcks(F factory, int prefetch) {
        factory.setAcknowledgeMode(AcknowledgeMode.MANUAL);
        factory.setPrefetchCount(prefetch);
        factory.setMissingQueuesFatal(false);
        return factory;
    }

    /** {@link Source#SHARED_QUEUE} for the act 1 work queue, {@link Source#OWN_QUEUE} for a reader's own queue. */
    public static String source(Message message) {
        return Topology.SHARED_QUEUE.equals(message.getMessageProperties().getConsumerQueue())
                ? Source.SHARED_QUEUE : Source.OWN_QUEUE;
    }

    /**
     * The order in the message; null when it is not one, after rejecting it without requeue (the
     * broker dead-letters it) and running {@code deadLettered}.
     */
    public static @Nullable OrderEvent decodeOrReject(Message message, Channel channel, String source,
            Runnable deadLettered) throws IOException {
        try {
            return OrderEventCodec.decode(message.getBody());
        }
        catch (OrderEventFormatException ex) {
            log.warn("dead-lettering poison from {}: {}", source, ex.getMessage());
            channel.basicReject(message.getMessageProperties().getDeliveryTag(), false);
            deadLettered.run();
            return null;
        }
    }
}
