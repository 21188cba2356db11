package dev.lunchrush.orderservice.notifications;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;

import dev.lunchrush.events.Menu;
import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;

/**
 * Puts the SMS task of an order that is in the log on the RabbitMQ work queue
 * {@code notifications.sms}: the log for the facts every reader reads, the work queue for the job
 * that exactly one worker must do. The order is already durable when this runs, so a failure here
 * does not turn its 201 into a 503 (a retry would place it twice); it is logged and counted when RabbitMQ's
 * confirm (or its absence) comes, after the answer.
 */
@Component
public class SmsTasks {

    private static final Logger log = LoggerFactory.getLogger(SmsTasks.class);

    private final RabbitOrderPublisher rabbit;
    private final JsonMapper json;
    private final Menu menu;
    private final Counter enqueued;
    private final Counter failed;

    SmsTasks(RabbitOrderPublisher rabbit, JsonMapper json, Menu menu, MeterRegistry registry) {
        this.rabbit = rabbit;
        this.json = json;
        this.menu = menu;
        this.enqueued = Counter.builder("notifications.enqueued").description("SMS tasks put on notifications.sms")
                .register(registry);
        this.failed = Counter.builder("notifications.enqueue.failed")
                .description("SMS tasks of accepted orders that RabbitMQ did not take").register(registry);
    }

    public void enqueue(OrderEvent order) {
        String kitchen = menu.kitchen(order.kitchenId()).map(Menu.Kitchen::name).orElse(order.kitchenId());
        SmsTask task = new SmsTask(order.orderId(), order.orderId(), order.customerId(), order.kitchenId(),
                "Your order from " + kitchen + " is being cooked: " + order.portions() + " portions, on their way soon.");
        // the answer to the order does not depend on this confirm, so the request does not wait for it: awaited,
        // RabbitMQ's disk sync would be in every order's latency
        rabbit.publishAsync("", Topology.NOTIFICATION_QUEUE, task.taskId(), order.placedAt().toEpochMilli(),
                json.writeValueAsBytes(task), confirmed -> {
                    if (confirmed) {
                        enqueued.increment();
                    }
                    else {
                        failed.increment();
                        log.warn("order {} is in the log but RabbitMQ did not take its SMS task", order.orderId());
                    }
                });
    }
}
