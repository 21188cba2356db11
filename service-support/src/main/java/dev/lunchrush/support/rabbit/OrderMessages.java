package dev.lunchrush.support.rabbit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.rabbitmq.client.Channel;

import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.config.AbstractRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.OrderEventFormatException;
import dev.lunchrush.events.Source;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.UnstorableOrderException;

/**
 * How the readers take orders from RabbitMQ: manual acknowledgements after the order is recorded; poison (not an
 * order event, an order beyond {@code OrderLimits}, an order the store cannot hold) dead-lettered to
 * {@code orders.dlx} with its reason ({@link OrderDeadLetters}), never requeued.
 */
public final class OrderMessages {

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
     * The orders in a batch of deliveries from one channel, by source, in the order they came; what is not an order
     * event (or an order beyond {@code OrderLimits}) already dead-lettered with its reason and counted.
     */
    public static <T> Batch<T> decodeBatch(List<Message> messages, Channel channel, Function<OrderEvent, T> map,
            OrderDeadLetters deadLetters) throws IOException {
        Map<String, List<Delivery<T>>> bySource = new LinkedHashMap<>();
        for (Message message : messages) {
            String source = source(message);
            try {
                OrderEvent event = OrderEventCodec.decode(message.getBody());
                bySource.computeIfAbsent(source, s -> new ArrayList<>()).add(new Delivery<>(map.apply(event), message));
            }
            catch (OrderEventFormatException ex) {
                deadLetters.deadLetter(message, channel, source, ex);
            }
        }
        return new Batch<>(bySource, deadLetters);
    }

    /** Stores a source's orders, all or none; or all before the one it throws {@link UnstorableOrderException} for. */
    @FunctionalInterface
    public interface Store<T> {

        void store(String source, List<T> orders) throws InterruptedException;
    }

    private record Delivery<T>(T order, Message message) {

        long tag() {
            return message.getMessageProperties().getDeliveryTag();
        }
    }

    /**
     * Orders of one batch by source. Their deliveries are settled together, with one acknowledgement or one
     * negative acknowledgement that covers every delivery of the channel up to the batch's last unsettled one: the
     * listener gets a channel's deliveries in order, one batch at a time, and the dead letters among them are
     * settled already, each on its own.
     */
    public static final class Batch<T> {

        /** How long a batch whose store failed waits before it is given back: no requeue loop while the store is down. */
        private static final long REQUEUE_PAUSE_MILLIS = 1000;

        private final Map<String, List<Delivery<T>>> bySource;
        private final OrderDeadLetters deadLetters;
        private final Set<Long> deadLettered = new HashSet<>();

        private Batch(Map<String, List<Delivery<T>>> bySource, OrderDeadLetters deadLetters) {
            this.bySource = bySource;
            this.deadLetters = deadLetters;
        }

        /** The orders in the batch, poison not counted. */
        public int orders() {
            return bySource.values().stream().mapToInt(List::size).sum();
        }

        /**
         * Stores each source's orders, in order. An order the store cannot hold ({@link UnstorableOrderException})
         * is dead-lettered with its reason and counted, and the orders after it are stored on. Any other failure
         * (the store down) goes to the caller, which gives the batch back ({@link #requeueLater}).
         */
        public void store(Channel channel, Store<T> store) throws IOException, InterruptedException {
            for (Map.Entry<String, List<Delivery<T>>> entry : bySource.entrySet()) {
                List<Delivery<T>> deliveries = entry.getValue();
                int from = 0;
                while (from < deliveries.size()) {
                    List<Delivery<T>> rest = deliveries.subList(from, deliveries.size());
                    try {
                        store.store(entry.getKey(), rest.stream().map(Delivery::order).toList());
                        from = deliveries.size();
                    }
                    catch (UnstorableOrderException ex) {
                        Delivery<T> unstorable = rest.get(ex.index());
                        deadLetters.deadLetter(unstorable.message(), channel, entry.getKey(), ex);
                        deadLettered.add(unstorable.tag());
                        from += ex.index() + 1;
                    }
                }
            }
        }

        /** Acknowledges the batch's orders: stored, RabbitMQ may forget them. */
        public void ack(Channel channel) throws IOException {
            long last = lastUnsettled();
            if (last >= 0) {
                channel.basicAck(last, true);
            }
        }

        /**
         * Gives the batch's orders back to the queue for a later try, after a pause: a store that is down is not
         * asked again at once, in a loop, for each redelivery.
         */
        public void requeueLater(Channel channel) throws IOException {
            try {
                Thread.sleep(REQUEUE_PAUSE_MILLIS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            requeue(channel);
        }

        /** Gives the batch's orders back to the queue at once. */
        public void requeue(Channel channel) throws IOException {
            long last = lastUnsettled();
            if (last >= 0) {
                channel.basicNack(last, true, true);
            }
        }

        /** The highest delivery tag of an order not dead-lettered; -1 when there is none. */
        private long lastUnsettled() {
            long last = -1;
            for (List<Delivery<T>> deliveries : bySource.values()) {
                for (Delivery<T> delivery : deliveries) {
                    if (!deadLettered.contains(delivery.tag())) {
                        last = Math.max(last, delivery.tag());
                    }
                }
            }
            return last;
        }
    }
}
