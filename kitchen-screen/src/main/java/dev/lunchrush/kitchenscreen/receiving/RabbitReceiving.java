package dev.lunchrush.kitchenscreen.receiving;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.amqp.autoconfigure.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;
import dev.lunchrush.support.rabbit.OrderMessages;
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

    @Bean
    SimpleRabbitListenerContainerFactory orderListenerFactory(SimpleRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, @Value("${lunchrush.rabbitmq.prefetch:50}") int prefetch) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        OrderMessages.manualAcks(factory, prefetch);
        return factory;
    }
}
