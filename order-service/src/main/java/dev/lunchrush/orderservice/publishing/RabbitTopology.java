package dev.lunchrush.orderservice.publishing;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.core.QueueBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;

/**
 * All of Lunch Rush's RabbitMQ topology, declared by the writer: in act 2 the writer has to know its
 * readers, and that is the lesson. Spring's RabbitAdmin declares it whenever a connection opens, so
 * a broker that was down at start or restarted gets it back. The readers declare the queues they
 * consume with the same arguments, so start order does not matter.
 */
@Configuration(proxyBeanMethods = false)
class RabbitTopology {

    static Queue orderQueue(String name) {
        return QueueBuilder.durable(name).deadLetterExchange(Topology.DEAD_LETTER_EXCHANGE).build();
    }

    @Bean
    Declarables lunchRushTopology() {
        FanoutExchange deadLetters = new FanoutExchange(Topology.DEAD_LETTER_EXCHANGE, true, false);
        Queue deadLetterQueue = QueueBuilder.durable(Topology.DEAD_LETTER_QUEUE).build();
        Queue shared = orderQueue(Topology.SHARED_QUEUE);
        FanoutExchange fanout = new FanoutExchange(Topology.FANOUT_EXCHANGE, true, false);
        Queue kitchen = orderQueue(Topology.KITCHEN_QUEUE);
        Queue analytics = orderQueue(Topology.ANALYTICS_QUEUE);
        // a task nobody can do is dead-lettered like an unreadable order, not retried for ever
        Queue notifications = orderQueue(Topology.NOTIFICATION_QUEUE);
        Binding deadLetterBinding = BindingBuilder.bind(deadLetterQueue).to(deadLetters);
        Binding kitchenBinding = BindingBuilder.bind(kitchen).to(fanout);
        Binding analyticsBinding = BindingBuilder.bind(analytics).to(fanout);
        return new Declarables(deadLetters, deadLetterQueue, deadLetterBinding, shared, fanout, kitchen, analytics,
                kitchenBinding, analyticsBinding, notifications);
    }
}
