package dev.lunchrush.kitchenscreen.receiving;

import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.boot.amqp.autoconfigure.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.rabbit.OrderMessages;
import dev.lunchrush.support.receiving.RabbitReaderConfiguration;
import dev.lunchrush.support.receiving.ReceivingProperties;

/**
 * The RabbitMQ queues this reader consumes (the shared one and the kitchen's own, declared as every reader
 * declares them), and the listener container: batches of deliveries, manual acknowledgements after the batch is
 * recorded, poison rejected without requeue so that the broker dead-letters it to {@code orders.dlx}.
 */
@Configuration(proxyBeanMethods = false)
class RabbitReceiving extends RabbitReaderConfiguration {

    RabbitReceiving(KitchenScreen screen) {
        super(Topology.KITCHEN_QUEUE, screen::deadLettered);
    }

    /**
     * Batches of deliveries ({@code lunchrush.rabbitmq.batch-size}, gathered for at most
     * {@code lunchrush.rabbitmq.batch-millis}), recorded in one journal write and acknowledged at once, so that a
     * rush costs a write and an acknowledgement per batch instead of one per order. The prefetch leaves room beyond
     * the batch being gathered, so that on the shared queue the broker keeps giving this reader its turn. An idle
     * consumer thread wakes once per batch period. The listener starts if {@code lunchrush.rabbitmq.listen}.
     */
    @Bean
    SimpleRabbitListenerContainerFactory orderListenerFactory(SimpleRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, ReceivingProperties receiving) {
        ReceivingProperties.Rabbitmq rabbitmq = receiving.rabbitmq();
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setAutoStartup(rabbitmq.listen());
        return OrderMessages.batches(factory, rabbitmq.prefetch(), rabbitmq.batchSize(), rabbitmq.batchMillis(),
                rabbitmq.batchMillis());
    }
}
