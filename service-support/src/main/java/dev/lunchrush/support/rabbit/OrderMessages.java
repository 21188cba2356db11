package dev.lunchrush.support.rabbit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import com.rabbitmq.client.Channel;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;

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

    /**
     * A reader's listener container for batches: the consumer's thread gathers up to {@code batchSize}
     * deliveries, waiting at most {@code receiveMillis} for each, and no longer than {@code batchMillis} once
     * the first came; an idle consumer thread wakes every {@code receiveMillis}. It hands them to a listener of
     * {@code List<Message>} that acknowledges the whole batch at once ({@link Batch#ack}). The prefetch must leave room beyond a batch that is being gathered or processed, or
     * the broker stops delivering to this reader meanwhile (on the shared queue of act 1, the other reader
     * would then get more than its share).
     */
    public static SimpleRabbitListenerContainerFactory batches(SimpleRabbitListenerContainerFactory factory,
            int prefetch, int batchSize, long receiveMillis, long batchMillis) {
        if (prefetch < 2 * batchSize) {
            throw new IllegalArgumentException("a prefetch of " + prefetch + " leaves no room beyond batches of "
                    + batchSize + ": give at least " + 2 * batchSize);
        }
        manualAcks(factory, prefetch);
        factory.setBatchListener(true);
        factory.setConsumerBatchEnabled(true);
        factory.setBatchSize(batchSize);
        factory.setReceiveTimeout(receiveMillis);
        factory.setBatchReceiveTimeout(batchMillis);
        return factory;
    }

    /**
     * The orders in a batch of deliveries from one channel, by source, in the order they came; poison in it
     * already rejected without requeue (the broker dead-letters it) and counted through {@code deadLettered}.
     */
    public static <T> Batch<T> decodeBatch(List<Message> messages, Channel channel, Function<OrderEvent, T> map,
            Consumer<String> deadLettered) throws IOException {
        Map<String, List<T>> bySource = new LinkedHashMap<>();
        long lastTag = -1;
        for (Message message : messages) {
            String source = source(message);
            OrderEvent event = decodeOrReject(message, channel, source, () -> deadLettered.accept(source));
            if (event != null) {
                bySource.computeIfAbsent(source, s -> new ArrayList<>()).add(map.apply(event));
                lastTag = message.getMessageProperties().getDeliveryTag();
            }
        }
        return new Batch<>(bySource, lastTag);
    }

    /**
     * Orders of one batch by source. Their deliveries are settled together, with one acknowledgement or one
     * negative acknowledgement that covers every delivery of the channel up to the batch's last: the listener
     * gets a channel's deliveries in order, one batch at a time, and the poison among them is settled already.
     */
    public record Batch<T>(Map<String, List<T>> bySource, long lastTag) {

        /** The orders in the batch, poison not counted. */
        public int orders() {
            return this.bySource.values().stream().mapToInt(List::size).sum();
        }

        /** Acknowledges the batch's orders: recorded, RabbitMQ may forget them. */
        public void ack(Channel channel) throws IOException {
            if (this.lastTag >= 0) {
                channel.basicAck(this.lastTag, true);
            }
        }

        /** Gives the batch's orders back to the queue, for a later try. */
        public void requeue(Channel channel) throws IOException {
            if (this.lastTag >= 0) {
                channel.basicNack(this.lastTag, true, true);
            }
        }
    }
}
