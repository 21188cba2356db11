package dev.lunchrush.support.receiving;

import java.util.function.Consumer;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import dev.lunchrush.events.Topology;
import dev.lunchrush.support.rabbit.OrderDeadLetters;
import dev.lunchrush.support.topology.OrderQueues;

/**
 * The RabbitMQ queues a reader consumes, the shared work queue of act 1 and its own queue, and their dead
 * letters, declared with the order service's exact arguments so that whichever starts first creates them, and how
 * the reader dead-letters a message it cannot take ({@link OrderDeadLetters}).
 * A reader's configuration extends it, names its own queue and adds its listener container, which is not
 * the same for every reader, from the readers' {@link ReceivingProperties} (registered here).
 */
@EnableConfigurationProperties(ReceivingProperties.class)
public abstract class RabbitReaderConfiguration {

    private final String ownQueue;
    private final Consumer<String> deadLettered;

    /**
     * @param ownQueue the reader's own queue
     * @param deadLettered counts one message dead-lettered from a source, as the reader counts its sources
     */
    protected RabbitReaderConfiguration(String ownQueue, Consumer<String> deadLettered) {
        this.ownQueue = ownQueue;
        this.deadLettered = deadLettered;
    }

    /** Poison to {@code orders.dlx} with its reason, confirmed, then acknowledged; counted. */
    @Bean
    public OrderDeadLetters orderDeadLetters(RabbitTemplate rabbitTemplate) {
        return new OrderDeadLetters(rabbitTemplate, deadLettered);
    }

    @Bean
    public Queue sharedOrdersQueue() {
        return OrderQueues.orderQueue(Topology.SHARED_QUEUE);
    }

    @Bean
    public Queue ownOrdersQueue() {
        return OrderQueues.orderQueue(ownQueue);
    }

    @Bean
    public FanoutExchange deadLetterExchange() {
        return OrderQueues.deadLetterExchange();
    }

    @Bean
    public Queue deadLetterQueue() {
        return OrderQueues.deadLetterQueue();
    }

    @Bean
    public Binding deadLetterBinding(FanoutExchange deadLetterExchange, Queue deadLetterQueue) {
        return OrderQueues.deadLetterBinding(deadLetterQueue, deadLetterExchange);
    }
}
