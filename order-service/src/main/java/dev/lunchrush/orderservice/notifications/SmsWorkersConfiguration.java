package dev.lunchrush.orderservice.notifications;

import org.springframework.amqp.rabbit.config.SimpleRabbitListenerContainerFactory;
import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.boot.amqp.autoconfigure.SimpleRabbitListenerContainerFactoryConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The SMS workers' listener containers: Spring Boot's, as {@code spring.rabbitmq.listener.simple.*} configures
 * them, started if {@code lunchrush.notifications.workers-enabled} ({@link NotificationSettings}, where its default
 * is).
 */
@Configuration(proxyBeanMethods = false)
class SmsWorkersConfiguration {

    static final String CONTAINER_FACTORY = "smsWorkerContainerFactory";

    @Bean(CONTAINER_FACTORY)
    SimpleRabbitListenerContainerFactory smsWorkerContainerFactory(SimpleRabbitListenerContainerFactoryConfigurer configurer,
            ConnectionFactory connectionFactory, NotificationSettings settings) {
        SimpleRabbitListenerContainerFactory factory = new SimpleRabbitListenerContainerFactory();
        configurer.configure(factory, connectionFactory);
        factory.setAutoStartup(settings.workersEnabled());
        return factory;
    }
}
