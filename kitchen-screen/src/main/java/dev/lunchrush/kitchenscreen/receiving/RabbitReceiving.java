package dev.lunchrush.kitchenscreen.receiving;

import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.amqp.autoconfigure.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;
import dev.lunchrush.kitchenscreen.screen.KitchenScreen;
import dev.lunchrush.support.rabbit.OrderMessages;
import dev.lunchrush.support.receiving.RabbitReaderConfiguration;

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
     * Batches of up to 25 deliveries, gathered for at most 50 ms (an order waits at most ~100 ms for its batch),
     * recorded in one journal write and acknowledged at once: at 400 orders/s a write and an acknowledgement per
     * ~10 orders instead of one each. The prefetch of 100 leaves room beyond the batch being gathered, so that on
     * the shared queue the broker keeps giving this reader its turn. An idle consumer thread wakes every 50 ms.
     */
    @Bean
    SimpleRabbitListenerContainerFactory orderListenerFactory(SimpleRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, @Value("${lunchrush.rabbitmq.prefetch:100}") int prefetch,
            @Value("${lunchrush.rabbitmq.batch-size:25}") int batchSize,
            @Value("${lunchrush.rabbitmq.batch-millis:50}") long batchMillis) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        return OrderMessages.batches(factory, prefetch, batchSize, batchMillis, batchMillis);
    }
}
