package dev.lunchrush.orderservice.notifications;

import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

import dev.lunchrush.events.OrderEvent;
import dev.lunchrush.events.OrderEventCodec;
import dev.lunchrush.events.Topology;
import dev.lunchrush.orderservice.menu.Menu;
import dev.lunchrush.support.problems.ProblemException;
import dev.lunchrush.orderservice.publishing.PublishingBlock;
import dev.lunchrush.orderservice.publishing.RabbitOrderPublisher;

/**
 * Puts the SMS tasks of the orders in the log on the RabbitMQ work queue {@code notifications.sms}:
 * the log for the facts every reader reads, the work queue for the job that exactly one worker must
 * do. The relay reads the log in a consumer group of its own ({@value #GROUP}), so the log is its
 * outbox: an order that is in the log gets its SMS task even when RabbitMQ was away when it was
 * placed, and the request that placed it neither waits for RabbitMQ nor depends on it.
 *
 * <p>Each fetched batch becomes one persistent message holding its tasks (a JSON array), confirmed by
 * RabbitMQ before the batch's offsets are committed; a batch that RabbitMQ did not take, or that was
 * not published because RabbitMQ blocks publishing (an alarm), is tried again (the error handler retries
 * every second, for ever), and a task that reaches the queue twice
 * that way is done once by the workers ({@link SmsWorkers}). Live orders only: a past order put in
 * by the import gets no SMS. A record that is not an order is left to the readers' dead-letter
 * handling.
 *
 * <p>Where a partition new to the group starts: {@link SmsRelayStart}.
 */
@Component
class SmsRelay {

    private static final Logger log = LoggerFactory.getLogger(SmsRelay.class);

    static final String GROUP = "sms-tasks";
    static final int MAX_TASKS_PER_MESSAGE = 500;

    private final RabbitOrderPublisher rabbit;
    private final PublishingBlock block;
    private final JsonMapper json;
    private final Menu menu;
    private final Counter enqueued;
    private final Counter failed;

    SmsRelay(RabbitOrderPublisher rabbit, PublishingBlock block, JsonMapper json, Menu menu, MeterRegistry registry) {
        this.rabbit = rabbit;
        this.block = block;
        this.json = json;
        this.menu = menu;
        this.enqueued = Counter.builder("notifications.enqueued").description("SMS tasks put on notifications.sms (confirmed)")
                .register(registry);
        this.failed = Counter.builder("notifications.enqueue.failed")
                .description("SMS tasks whose message RabbitMQ did not take at an attempt: tried again, not lost")
                .register(registry);
    }

    @KafkaListener(id = GROUP, topics = Topology.ORDERS_TOPIC, containerFactory = SmsRelayConfiguration.CONTAINER_FACTORY)
    void relay(List<ConsumerRecord<String, byte[]>> records) {
        List<SmsTask> tasks = new ArrayList<>(records.size());
        long oldest = Long.MAX_VALUE;
        for (ConsumerRecord<String, byte[]> record : records) {
            OrderEvent order;
            try {
                order = OrderEventCodec.decode(record.value());
            }
            catch (RuntimeException notAnOrder) {
                log.debug("record {}-{}@{} is not an order: no SMS", record.topic(), record.partition(), record.offset());
                continue;
            }
            if (!order.isLive()) {
                continue;
            }
            tasks.add(task(order));
            oldest = Math.min(oldest, order.placedAt().toEpochMilli());
        }
        if (tasks.isEmpty()) {
            return;
        }
        ConsumerRecord<String, byte[]> first = records.get(0);
        String messageId = "sms-" + first.partition() + "-" + first.offset() + "-" + tasks.size();
        try {
            String blocked = block.reason();
            if (blocked != null) {
                // published now, the batch would wait in the socket, and this consumer with it, until the alarm ends
                throw ProblemException.unavailable("RabbitMQ blocks publishing (" + blocked + ")");
            }
            rabbit.publishAndWait("", Topology.NOTIFICATION_QUEUE, messageId, oldest, json.writeValueAsBytes(tasks));
        }
        catch (ProblemException ex) {
            failed.increment(tasks.size());
            log.warn("{} SMS tasks not taken by RabbitMQ ({}): trying again", tasks.size(), ex.detail());
            throw ex;
        }
        enqueued.increment(tasks.size());
    }

    private SmsTask task(OrderEvent order) {
        String kitchen = menu.kitchen(order.kitchenId()).map(Menu.Kitchen::name).orElse(order.kitchenId());
        return new SmsTask(order.orderId(), order.orderId(), order.customerId(), order.kitchenId(),
                "Your order from " + kitchen + " is being cooked: " + order.portions() + " portions, on their way soon.",
                order.placedAt().toEpochMilli());
    }
}
