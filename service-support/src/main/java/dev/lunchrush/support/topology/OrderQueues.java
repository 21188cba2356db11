package dev.lunchrush.support.topology;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;

import dev.lunchrush.events.Topology;

/**
 * The RabbitMQ order queues and their dead letters as every service declares them (the order service
 * all of them, each reader the ones it consumes): one definition of the arguments, because RabbitMQ
 * refuses a second declaration of a queue with different ones.
 */
public final class OrderQueues {

    private OrderQueues() {
    }

    /** A durable queue whose rejected messages go to {@code orders.dlx}. */
    public static Queue orderQueue(String name) {
        return QueueBuilder.durable(name).deadLetterExchange(Topology.DEAD_LETTER_EXCHANGE).build();
    }

    /** {@code orders.dlx}: durable fanout. */
    public static FanoutExchange deadLetterExchange() {
        return new FanoutExchange(Topology.DEAD_LETTER_EXCHANGE, true, false);
    }

    /** {@code orders.dead-letter}, behind {@link #deadLetterExchange()}. */
    public static Queue deadLetterQueue() {
        return QueueBuilder.durable(Topology.DEAD_LETTER_QUEUE).build();
    }

    public static Binding deadLetterBinding(Queue deadLetterQueue, FanoutExchange deadLetterExchange) {
        return BindingBuilder.bind(deadLetterQueue).to(deadLetterExchange);
    }
}
