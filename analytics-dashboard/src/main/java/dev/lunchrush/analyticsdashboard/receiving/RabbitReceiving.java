package dev.lunchrush.analyticsdashboard.receiving;

import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.boot.amqp.autoconfigure.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.analyticsdashboard.processing.OrderProcessor;
import dev.lunchrush.events.Topology;
import dev.lunchrush.support.rabbit.OrderMessages;
import dev.lunchrush.support.receiving.RabbitReaderConfiguration;
import dev.lunchrush.support.receiving.ReceivingProperties;

/**
 * The RabbitMQ queues this reader consumes (the shared one and the dashboard's own, declared as every reader
 * declares them), and the listener container: batches of messages, manual acknowledgements after the batch
 * is in the database, a modest prefetch so that the slow job's backlog stays in the broker (where act 2
 * wants it seen) rather than in this process.
 */
@Configuration(proxyBeanMethods = false)
class RabbitReceiving extends RabbitReaderConfiguration {

    RabbitReceiving(OrderProcessor processor) {
        super(Topology.ANALYTICS_QUEUE, processor::deadLettered);
    }

    @Bean
    SimpleRabbitListenerContainerFactory orderListenerFactory(SimpleRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, ReceivingProperties receiving) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setAutoStartup(receiving.rabbitmq().listen());
        // a batch goes to the listener when it is full, when a message comes more than half a second after the batch
        // was begun, or when no message came for a second (an order waits 1.5 s at most); an idle consumer thread
        // wakes once a second, not more often for nothing
        return OrderMessages.batches(factory, receiving.rabbitmq().prefetch(), receiving.rabbitmq().batchSize(), 1000L, 500L);
    }
}
