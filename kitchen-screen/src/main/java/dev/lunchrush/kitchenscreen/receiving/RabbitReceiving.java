package dev.lunchrush.kitchenscreen.receiving;

import org.springframework.amqp.rabbit.config.DirectRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.amqp.autoconfigure.DirectRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;
import dev.lunchrush.support.rabbit.OrderMessages;
import dev.lunchrush.support.receiving.RabbitReaderConfiguration;

/**
 * The RabbitMQ queues this reader consumes (the shared one and the kitchen's own, declared as every reader
 * declares them), and the listener container: manual acknowledgements, poison rejected without requeue so
 * that the broker dead-letters it to {@code orders.dlx}.
 */
@Configuration(proxyBeanMethods = false)
class RabbitReceiving extends RabbitReaderConfiguration {

    RabbitReceiving() {
        super(Topology.KITCHEN_QUEUE);
    }

    /**
     * A direct container: the RabbitMQ client's own thread hands each delivery to the listener, with no consumer
     * thread of the container's that wakes every second to look for messages (the simple container's
     * {@code receiveTimeout}), so an idle screen does no work for its queues. Manual acknowledgements, the prefetch,
     * and a queue that is missing at the start retried in the background, as on the dashboard's simple container.
     */
    @Bean
    DirectRabbitListenerContainerFactory orderListenerFactory(DirectRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, @Value("${lunchrush.rabbitmq.prefetch:50}") int prefetch) {
        DirectRabbitListenerContainerFactory factory = new DirectRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        return OrderMessages.manualAcks(factory, prefetch);
    }
}
