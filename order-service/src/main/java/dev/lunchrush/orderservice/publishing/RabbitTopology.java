package dev.lunchrush.orderservice.publishing;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.Declarables;
import org.springframework.amqp.core.FanoutExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.lunchrush.events.Topology;
import dev.lunchrush.support.topology.OrderQueues;

/**
 * All of Lunch Rush's RabbitMQ topology, declared by the writer: in act 2 the writer has to know its
 * readers, and that is the lesson. Spring's RabbitAdmin declares it whenever a connection opens, so
 * a broker that was down at start or restarted gets it back. The readers declare the queues they
 * consume with the same arguments, so start order does not matter.
 */
@Configuration(proxyBeanMethods = false)
class RabbitTopology {

    @Bean
    Declarables lunchRushTopology() {
        FanoutExchange deadLetters = OrderQueues.deadLetterExchange();
        Queue deadLetterQueue = OrderQueues.deadLetterQueue();
        Queue shared = OrderQueues.orderQueue(Topology.SHARED_QUEUE);
        FanoutExchange fanout = new FanoutExchange(Topology.FANOUT_EXCHANGE, true, false);
        Queue kitchen = OrderQueues.orderQueue(Topology.KITCHEN_QUEUE);
        Queue analytics = OrderQueues.orderQueue(Topology.ANALYTICS_QUEUE);
        // a task nobody can do is dead-lettered like an unreadable order, not retried for ever
        Queue notifications = OrderQueues.orderQueue(Topology.NOTIFICATION_QUEUE);
        Binding deadLetterBinding = OrderQueues.deadLetterBinding(deadLetterQueue, deadLetters);
        Binding kitchenBinding = BindingBuilder.bind(kitchen).to(fanout);
        Binding analyticsBinding = BindingBuilder.bind(analytics).to(fanout);
        return new Declarables(deadLetters, deadLetterQueue, deadLetterBinding, shared, fanout, kitchen, analytics,
                kitchenBinding, analyticsBinding, notifications);
    }
}
