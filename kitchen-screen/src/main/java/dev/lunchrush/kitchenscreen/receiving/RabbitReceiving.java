package dev.lunchrush.kitchenscreen.receiving;

import org.springframework.amqp.core.AcknowledgeMode;
import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.amqp.autoconfigure.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;

/**
 * The RabbitMQ queues this reader consumes, declared with the order service's exact arguments so that
 * whichever starts first creates them, and the listener container: manual acknowledgements, poison
 * rejected without requeue so that the broker dead-letters it to {@code orders.dlx}.
 */
@Configuration(proxyBeanMethods = false)
class RabbitReceiving {

    static Queue orderQueue(String name) {
        return QueueBuilder.durable(name).deadLetterExchange(Topology.DEAD_LETTER_EXCHANGE).build();
    }

    @Bean
    Queue sharedOrdersQueue() {
        return orderQueue(Topology.SHARED_QUEUE);
    }

    @Bean
    Queue kitchenOrdersQueue() {
        return orderQueue(Topology.KITCHEN_QUEUE);
    }

    @Bean
    FanoutExchange deadLetterExchange() {
        return new FanoutExchange(Topology.DEAD_LETTER_EXCHANGE, true, false);
    }

    @Bean
    Queue deadLetterQueue() {
        return QueueBuilder.durable(Topology.DEAD_LETTER_QUEUE).build();
    }

    @Bean
    Binding deadLetterBinding(FanoutExchange deadLetterExchange, Queue deadLetterQueue) {
        return BindingBuilder.bind(deadLetterQueue).to(deadLetterExchange);
    }

    @Bean
    SimpleRabbitListenerContainerFactory orderListenerFactory(SimpleRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, @Value("${lunchrush.rabbitmq.prefetch:50}") int prefetch) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setAcknowledgeMode(AcknowledgeMode.MANUAL);
        factory.setPrefetchCount(prefetch);
        // a broker that is down at start is retried in the background; the web part starts anyway
        factory.setMissingQueuesFatal(false);
        return factory;
    }
}
