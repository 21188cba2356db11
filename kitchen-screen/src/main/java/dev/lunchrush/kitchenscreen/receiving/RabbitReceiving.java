package dev.lunchrush.kitchenscreen.receiving;

import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.config.DirectRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.amqp.autoconfigure.DirectRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;
import dev.lunchrush.support.topology.OrderQueues;

/**
 * The RabbitMQ queues this reader consumes, declared with the order service's exact arguments so that
 * whichever starts first creates them, and the listener container: manual acknowledgements, poison
 * rejected without requeue so that the broker dead-letters it to {@code orders.dlx}.
 */
@Configuration(proxyBeanMethods = false)
class RabbitReceiving {

    @Bean
    Queue sharedOrdersQueue() {
        return OrderQueues.orderQueue(Topology.SHARED_QUEUE);
    }

    @Bean
    Queue kitchenOrdersQueue() {
        return OrderQueues.orderQueue(Topology.KITCHEN_QUEUE);
    }

    @Bean
    FanoutExchange deadLetterExchange() {
        return OrderQueues.deadLetterExchange();
    }

    @Bean
    Queue deadLetterQueue() {
        return OrderQueues.deadLetterQueue();
    }

    @Bean
    Binding deadLetterBinding(FanoutExchange deadLetterExchange, Queue deadLetterQueue) {
        return OrderQueues.deadLetterBinding(deadLetterQueue, deadLetterExchange);
    }

    /**
     * A direct container: the RabbitMQ client's own thread hands each delivery to the listener, with no consumer
     * thread of the container's that wakes every second to look for messages (the simple container's
     * {@code receiveTimeout}), so an idle screen does no work for its queues. Manual acknowledgements, the prefetch,
     * and a queue that is missing at the start retried in the background, as {@code OrderMessages.manualAcks} sets
     * them on a simple container.
     */
    @Bean
    DirectRabbitListenerContainerFactory orderListenerFactory(DirectRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, @Value("${lunchrush.rabbitmq.prefetch:50}") int prefetch) {
        DirectRabbitListenerContainerFactory factory = new DirectRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setAcknowledgeMode(AcknowledgeMode.MANUAL);
        factory.setPrefetchCount(prefetch);
        factory.setMissingQueuesFatal(false);
        return factory;
    }
}
